import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { mergeClasses } from '@fluentui/react-components';
import { useStyles } from './styles.ts';
import { Pager } from './Pager.tsx';
import type { ScreenProps } from '../types.ts';
import type { DashboardField, DashboardFilter, DashboardOptions, DashboardPanel } from './types.ts';
import { useGetPanelRows, useGetReference } from '../../client/react/hooks.ts';
import { Heading, Notice, PageSpinner, ShellButton } from '../common/primitives.tsx';
import { pickLocale } from '../../shared/locales.ts';
import { DISPLAY_FORMATS, formatValue } from '../../shared/cell-formats.ts';
import type { FormatContext } from '../../shared/format.ts';
import { BUSINESS_TIME_ZONE } from '../../shared/time-zone.ts';

// apexcharts arrives only with a chart panel, never with the first visit.
const DashboardChart = lazy(() => import('./Chart.tsx'));

type Row = Record<string, unknown>;

/** This month in Tashkent as YYYY-MM. */
const currentMonth = (): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric', month: '2-digit' })
    .format(new Date())
    .slice(0, 7);

const initialValues = (filters: DashboardFilter[]): Record<string, string> =>
  Object.fromEntries(
    filters.map((f) => [
      f.name,
      f.default !== undefined
        ? String(f.default)
        : f.month
          ? currentMonth()
          : f.choices && f.required
            ? f.choices[0]!.value
            : '',
    ]),
  );

/** A labeller of values by a field's format and reference list. */
function useFieldLabel(fields: Array<DashboardField | undefined>) {
  const { t, i18n } = useTranslation();
  const locale = pickLocale(i18n.language);
  const kinds = [...new Set(fields.map((f) => f?.reference).filter((k): k is string => Boolean(k)))];
  // Reference lists are few and cached for ten minutes; one hook per distinct kind, in a stable order.
  const lists = kinds.map((kind) => ({ kind, query: useGetReference(kind) }));
  const ctx: FormatContext = {
    locale,
    translate: (key) => (i18n.exists(key) ? t(key) : undefined),
    reference: (kind, id) => lists.find((l) => l.kind === kind)?.query.data?.find((i) => i.id === id),
  };
  return (field: DashboardField | undefined, value: unknown): string => {
    if (value === null || value === undefined || value === '') return '—';
    // A field with a reference list names its values from it, whatever its format.
    if (field?.reference) return formatValue(value, 'reference', { reference: field.reference }, ctx);
    return formatValue(value, field?.format ?? 'text', {}, ctx);
  };
}

/**
 * A page of tables and charts over API answers (`{list: [...]}`), typically the generic
 * aggregates of an entity: filters on top (reference lists, choices, a month), each panel a
 * table or an apexcharts bar/line chart declared in the screen's options, with loading,
 * no-data and error states per panel. Tables scroll sideways on a phone; charts also carry
 * an accessible label and, for keyboard and screen-reader users, the same numbers as a table.
 */
export default function DashboardScreen({ screen }: ScreenProps) {
  const { t } = useTranslation();
  const s = useStyles();
  const navigate = useNavigate();
  const options = screen.options as unknown as DashboardOptions;
  const filters = options.filters ?? [];
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(filters));
  // The page of each paged table (a list-search with itemsPerPage); new filter values start again at one.
  const [pages, setPages] = useState<Record<string, number>>({});
  const setFilter = (name: string, v: string) => {
    setValues((old) => ({ ...old, [name]: v }));
    setPages({});
  };

  const requests = options.panels.map((panel) => {
    const query: Record<string, unknown> = { ...panel.source.query };
    for (const name of panel.source.filters ?? []) if (values[name]) query[name] = values[name];
    const perPage =
      panel.kind === 'table' && panel.source.method === 'POST' ? panel.source.body?.itemsPerPage : undefined;
    return { panel, query, perPage: typeof perPage === 'number' ? perPage : undefined };
  });
  const results = useGetPanelRows(
    screen.id,
    requests.map(({ panel, query, perPage }) => ({
      id: panel.id,
      source: panel.source,
      query,
      page: perPage ? (pages[panel.id] ?? 0) : undefined,
    })),
  );

  const fields = options.panels
    .flatMap((p) => [...(p.columns ?? []), p.x, p.seriesBy, ...(p.y ?? [])])
    .concat(
      filters.map((f) => (f.reference ? { field: f.name, titleKey: f.titleKey, reference: f.reference } : undefined)),
    );
  const label = useFieldLabel(fields);

  return (
    <div data-screen={screen.id} className={s.root}>
      {options.back && (
        <ShellButton data-action="back" onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/'))}>
          ← {t('engine.dashboard.back')}
        </ShellButton>
      )}
      <Heading>{t(screen.titleKey)}</Heading>
      {filters.some((f) => !f.panel) && (
        <div className={s.filters} role="group" aria-label={t(screen.titleKey)}>
          {filters
            .filter((f) => !f.panel)
            .map((f) => (
              <FilterControl
                key={f.name}
                filter={f}
                value={values[f.name] ?? ''}
                onChange={(v) => setFilter(f.name, v)}
                label={label}
              />
            ))}
        </div>
      )}
      {requests.map(({ panel, perPage }, i) => {
        const result = results[i]!;
        const rows = result.data?.list ?? [];
        let body: ReactNode;
        if (result.isPending) body = <PageSpinner label={t('engine.dashboard.loading')} />;
        else if (result.isError)
          body = (
            <Notice intent="error" data-state="error">
              {t(options.errorKey ?? 'engine.dashboard.error')}{' '}
              <ShellButton onClick={() => void result.refetch()}>{t('engine.dashboard.retry')}</ShellButton>
            </Notice>
          );
        else if (
          !rows.length ||
          (panel.kind !== 'table' && rows.every((r) => (panel.y ?? []).every((y) => !Number(r[y.field]))))
        ) {
          body = <Notice data-state="empty">{t(options.emptyKey ?? 'engine.dashboard.empty')}</Notice>;
        } else
          body =
            panel.kind === 'table' ? (
              <>
                <PanelTable panel={panel} rows={rows} label={label} />
                {perPage !== undefined && (
                  <Pager
                    page={pages[panel.id] ?? 0}
                    perPage={perPage}
                    shown={rows.length}
                    total={result.data!.total}
                    onPage={(page) => setPages((old) => ({ ...old, [panel.id]: page }))}
                  />
                )}
              </>
            ) : (
              <PanelChart panel={panel} rows={rows} label={label} />
            );
        return (
          <section key={panel.id} data-panel={panel.id} className={s.panel} aria-busy={result.isPending}>
            <h2 className={s.h2}>{t(panel.titleKey)}</h2>
            {filters.some((f) => f.panel === panel.id) && (
              <div className={s.filters} role="group" aria-label={t(panel.titleKey)}>
                {filters
                  .filter((f) => f.panel === panel.id)
                  .map((f) => (
                    <FilterControl
                      key={f.name}
                      filter={f}
                      value={values[f.name] ?? ''}
                      onChange={(v) => setFilter(f.name, v)}
                      label={label}
                    />
                  ))}
              </div>
            )}
            {body}
          </section>
        );
      })}
    </div>
  );
}

type Label = ReturnType<typeof useFieldLabel>;

function FilterControl({
  filter,
  value,
  onChange,
  label,
}: {
  filter: DashboardFilter;
  value: string;
  onChange(v: string): void;
  label: Label;
}) {
  const { t } = useTranslation();
  const s = useStyles();
  const items = useGetReference(filter.reference).data;
  const id = `filter-${filter.name}`;
  return (
    <label className={s.filter} htmlFor={id}>
      <span>{t(filter.titleKey)}</span>
      {filter.month ? (
        <input
          id={id}
          type="month"
          className={s.control}
          value={value}
          data-filter={filter.name}
          onChange={(e) => e.target.value && onChange(e.target.value)}
        />
      ) : (
        <select
          id={id}
          className={s.control}
          value={value}
          data-filter={filter.name}
          onChange={(e) => onChange(e.target.value)}
        >
          {!filter.required && <option value="">{t('engine.dashboard.all')}</option>}
          {filter.choices?.map((c) => (
            <option key={c.value} value={c.value}>
              {t(c.labelKey)}
            </option>
          ))}
          {items?.map((item) => (
            <option key={item.id} value={String(item.id)}>
              {label({ field: filter.name, titleKey: filter.titleKey, reference: filter.reference }, item.id)}
            </option>
          ))}
        </select>
      )}
    </label>
  );
}

function PanelTable({ panel, rows, label }: { panel: DashboardPanel; rows: Row[]; label: Label }) {
  const { t } = useTranslation();
  const s = useStyles();
  const columns = panel.columns ?? [];
  return (
    <div className={s.scroll} data-scroll tabIndex={0} role="region" aria-label={t(panel.titleKey)}>
      <table className={mergeClasses(s.table, s.stacked)}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.field} scope="col" className={s.th}>
                {t(c.titleKey)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} data-row={i}>
              {columns.map((c) => {
                const shown = c.format ? DISPLAY_FORMATS[c.format] : undefined;
                return (
                  <td
                    key={c.field}
                    data-cell={c.field}
                    data-label={t(c.titleKey)}
                    className={shown?.numeric ? s.num : s.td}
                  >
                    {shown?.href && typeof row[c.field] === 'string' ? (
                      <a href={String(row[c.field])} download>
                        {t(c.titleKey)}
                      </a>
                    ) : (
                      label(c, row[c.field])
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PanelChart({ panel, rows, label }: { panel: DashboardPanel; rows: Row[]; label: Label }) {
  const { t } = useTranslation();
  const s = useStyles();
  const x = panel.x!;
  const ys = panel.y ?? [];
  const chart = useMemo(() => {
    const categories = [...new Set(rows.map((r) => String(r[x.field])))];
    const series = panel.seriesBy
      ? [...new Set(rows.map((r) => r[panel.seriesBy!.field]))].map((key) => ({
          name: label(panel.seriesBy, key),
          data: categories.map((c) => {
            const row = rows.find((r) => String(r[x.field]) === c && r[panel.seriesBy!.field] === key);
            return row ? Number(row[ys[0]!.field]) : null;
          }),
        }))
      : ys.map((y) => ({
          name: t(y.titleKey),
          data: categories.map((c) => Number(rows.find((r) => String(r[x.field]) === c)?.[y.field] ?? 0)),
        }));
    return { categories, series };
  }, [rows, panel, label, t, x.field, ys]);
  const format = (v: number) => label(ys[0], v);
  return (
    <>
      <Suspense fallback={<PageSpinner label={t('engine.dashboard.loading')} />}>
        <DashboardChart
          kind={panel.kind === 'line' ? 'line' : 'bar'}
          categories={chart.categories.map((c) => label(x, c))}
          series={chart.series}
          xTitle={t(x.titleKey)}
          yTitle={t(ys[0]?.titleKey ?? '')}
          label={t('engine.dashboard.chartLabel', { title: t(panel.titleKey) })}
          format={format}
        />
      </Suspense>
      <details className={s.details}>
        <summary>{t('engine.dashboard.asTable')}</summary>
        <div className={s.scroll} data-scroll tabIndex={0} role="region" aria-label={t(panel.titleKey)}>
          <table className={s.table}>
            <thead>
              <tr>
                <th scope="col" className={s.th}>
                  {t(x.titleKey)}
                </th>
                {chart.series.map((se) => (
                  <th key={se.name} scope="col" className={s.th}>
                    {se.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {chart.categories.map((c, i) => (
                <tr key={c}>
                  <td className={s.td}>{label(x, c)}</td>
                  {chart.series.map((se) => (
                    <td key={se.name} className={s.num}>
                      {se.data[i] === null ? '—' : format(se.data[i]!)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
