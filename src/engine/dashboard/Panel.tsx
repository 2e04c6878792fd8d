import { useDownloadClick } from '../common/useDownload.ts';
import type { CSSProperties, ReactNode } from 'react';
import { mergeClasses } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import type { DashboardFilter, DashboardOptions, DashboardPanel } from '../../generated/meta.ts';
import type { PanelPage } from '../../client/data-provider.ts';
import { periodFilterOf, type FilterValues } from '../../shared/dashboard-query.ts';
import { parsePeriod, previousPeriod } from '../../shared/periods.ts';
import { periodWords } from './period-words.ts';
import { formatNumber } from '../../shared/format.ts';
import { pickLocale } from '../../shared/locales.ts';
import { Notice, ShellButton } from '../common/primitives.tsx';
import { useDrill } from './drill.ts';
import { FilterControl } from './FilterControl.tsx';
import type { Label } from './label.ts';
import { Pager } from './Pager.tsx';
import { PanelChart } from './PanelChart.tsx';
import { PanelTable } from './PanelTable.tsx';
import { StatTiles } from './StatTiles.tsx';
import { tableLines } from './table-model.ts';
import { PanelSkeleton } from './PanelSkeleton.tsx';
import { RESERVED_LINES_VAR, RESERVED_ROWS_VAR, TABLE_RESERVED_ROWS } from './sizes.ts';
import { useStyles } from './styles.ts';

type Result = UseQueryResult<PanelPage>;

/** The XLSX download of a panel: the export endpoint with the dashboard's filter values and the language. */
export function exportHref(screenId: string, panelId: string, values: FilterValues, lang: string): string {
  const query = new URLSearchParams(Object.entries(values).filter(([, v]) => v !== ''));
  query.set('lang', lang);
  return `/api/dashboards/${encodeURIComponent(screenId)}/${encodeURIComponent(panelId)}/export?${query}`;
}

/**
 * One panel of a dashboard: its title and description, its own filters, the download, and its
 * body in the state its calls are in (loading, error with retry, no data, the table, tiles or chart).
 */
export function Panel({
  screenId,
  options,
  panel,
  values,
  setFilter,
  label,
  result,
  previous,
  totals,
  page,
  perPage,
  onPage,
}: {
  screenId: string;
  options: DashboardOptions;
  panel: DashboardPanel;
  values: FilterValues;
  setFilter(name: string, value: string): void;
  label: Label;
  result: Result;
  previous: Result | undefined;
  totals: Result | undefined;
  page: number;
  perPage: number | undefined;
  onPage(page: number): void;
}) {
  const { t, i18n } = useTranslation();
  const s = useStyles();
  const filters: DashboardFilter[] = options.filters ?? [];
  const drill = useDrill(panel, filters, values);
  const onDownload = useDownloadClick();
  const own = filters.filter((f) => f.panel === panel.id);
  const rows = result.data?.list ?? [];
  const periodFilter = periodFilterOf(filters);
  const period = periodFilter && panel.compare ? parsePeriod(values[periodFilter.name]) : undefined;
  const previousWords = period && panel.kind === 'table' ? periodWords(previousPeriod(period), t) : undefined;
  const download =
    panel.kind !== 'stat' && panel.export !== false ? (
      <a
        className={s.download}
        data-action="export"
        href={exportHref(screenId, panel.id, values, i18n.language)}
        download
        onClick={onDownload}
      >
        {t('engine.dashboard.export')}
      </a>
    ) : null;
  const pending = result.isPending || previous?.isPending || totals?.isPending;
  const failed = [result, previous, totals].find((r) => r?.isError);
  let body: ReactNode;
  const reservedRows = panel.reservedRows ?? TABLE_RESERVED_ROWS;
  if (pending) body = <PanelSkeleton kind={panel.kind} label={t('engine.dashboard.loading')} rows={reservedRows} />;
  else if (failed)
    body = (
      <Notice intent="error" data-state="error">
        {t(options.errorKey ?? 'engine.dashboard.error')}{' '}
        <ShellButton onClick={() => void failed.refetch()}>{t('engine.dashboard.retry')}</ShellButton>
      </Notice>
    );
  else if (
    !rows.length ||
    ((panel.kind === 'bar' || panel.kind === 'line') &&
      rows.every((r) => (panel.y ?? []).every((y) => !Number(r[y.field]))))
  )
    body = <Notice data-state="empty">{t(options.emptyKey ?? 'engine.dashboard.empty')}</Notice>;
  else if (panel.kind === 'stat')
    body = <StatTiles panel={panel} row={rows[0]!} previous={previous?.data?.list[0]} label={label} drill={drill} />;
  else if (panel.kind === 'table') {
    const lines = tableLines(panel, rows, {
      groupFields: drill.groupFields,
      totalsRows: totals?.data?.list,
      previousRows: previous?.data?.list,
    });
    const locale = pickLocale(i18n.language);
    body = (
      <>
        <PanelTable panel={panel} lines={lines} label={label} drill={drill} compare={Boolean(previous)} />
        {panel.limit !== undefined && rows.length > panel.limit && (
          <Notice data-state="limited">
            {t('engine.dashboard.limited', {
              shown: formatNumber(panel.limit, locale),
              total: formatNumber(result.data!.total > rows.length ? result.data!.total : rows.length, locale),
            })}
          </Notice>
        )}
        {perPage !== undefined && (
          <Pager page={page} perPage={perPage} shown={rows.length} total={result.data!.total} onPage={onPage} />
        )}
      </>
    );
  } else body = <PanelChart panel={panel} rows={rows} label={label} drill={drill} download={download} />;
  return (
    <section data-panel={panel.id} className={s.panel} aria-busy={Boolean(pending)}>
      <div className={s.panelHead}>
        <h2 className={s.h2}>{t(panel.titleKey)}</h2>
        {panel.kind === 'table' && download}
      </div>
      {panel.descriptionKey && (
        <p className={s.description} data-description>
          {t(panel.descriptionKey)}
        </p>
      )}
      {previousWords && (
        <p className={s.description} data-compare-note>
          {t('engine.dashboard.compareNote', { period: previousWords })}
        </p>
      )}
      {own.length > 0 && (
        <div className={s.filters} role="group" aria-label={t(panel.titleKey)}>
          {own.map((f) => (
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
      {/* The body keeps the room of its kind in every state, so that nothing moves when the answer lands. */}
      <div
        className={mergeClasses(
          s.body,
          panel.kind === 'table' ? s.tableBody : panel.kind === 'stat' ? undefined : s.chartBody,
        )}
        style={
          panel.kind === 'table'
            ? ({
                [RESERVED_ROWS_VAR]: reservedRows,
                [RESERVED_LINES_VAR]: Math.max(1, panel.columns?.length ?? 1),
              } as CSSProperties)
            : undefined
        }
      >
        {body}
      </div>
    </section>
  );
}
