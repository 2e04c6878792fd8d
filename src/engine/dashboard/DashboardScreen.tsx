import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Tab, TabList } from '../common/TabList.tsx';
import type { ScreenProps } from '../types.ts';
import type { DashboardOptions, DashboardPanel } from '../../generated/meta.ts';
import { useGetPanelRows } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { canOpen } from '../../shared/ability.ts';
import { effectiveValues, panelCall, periodFilterOf, type PanelCall } from '../../shared/dashboard-query.ts';
import { parsePeriod } from '../../shared/periods.ts';
import { Heading, ShellButton } from '../common/primitives.tsx';
import { FilterControl } from './FilterControl.tsx';
import { useFieldLabel } from './label.ts';
import { Panel } from './Panel.tsx';
import { periodWords } from './period-words.ts';
import { useStyles } from './styles.ts';

/** The URL parameter of the open tab. */
const TAB = 'tab';

/** The page size of a paged table (a list-search with `itemsPerPage`), else undefined. */
const perPageOf = (panel: DashboardPanel): number | undefined => {
  const n =
    panel.kind === 'table' && panel.source.method === 'POST'
      ? (panel.source.body as { itemsPerPage?: unknown } | undefined)?.itemsPerPage
      : undefined;
  return typeof n === 'number' ? n : undefined;
};

/**
 * A page of tables, number tiles and charts over API answers (`{list: [...]}`), typically an
 * entity's declared aggregates (schemas/_meta/dashboard.schema.json, docs/dashboards.md). The
 * filter values and the open tab live in the URL, so a reload or a shared link shows the same
 * dashboard; only the open tab's panels, and only those the user may see, ask the server.
 * Every number links to the list behind it, every table downloads as XLSX.
 */
export default function DashboardScreen({ screen }: ScreenProps) {
  const { t } = useTranslation();
  const s = useStyles();
  const navigate = useNavigate();
  const ability = useAbility();
  const [params, setParams] = useSearchParams();
  const options = screen.options as unknown as DashboardOptions;
  const filters = options.filters ?? [];
  const values = effectiveValues(filters, Object.fromEntries(params));
  // The page of each paged table; new filter values start again at one.
  const [pages, setPages] = useState<Record<string, number>>({});
  const setParam = (name: string, v: string) =>
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        if (v) next.set(name, v);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const setFilter = (name: string, v: string) => {
    setParam(name, v);
    setPages({});
  };

  const tabs = options.tabs ?? [];
  const tab = tabs.find((x) => x.id === params.get(TAB)) ?? tabs[0];
  const panels = options.panels.filter(
    (p) => (!tab || tab.panels.includes(p.id)) && (!p.permission || canOpen(ability, p.permission, true)),
  );
  const calls = panels.flatMap((panel) => {
    const perPage = perPageOf(panel);
    const one = (id: string, call: PanelCall, page?: number) => ({
      id,
      source: { endpoint: call.endpoint, method: call.method, body: call.body },
      query: call.query,
      page,
      refreshSeconds: panel.refreshSeconds,
    });
    return [
      one(panel.id, panelCall(panel.source, filters, values), perPage ? (pages[panel.id] ?? 0) : undefined),
      ...(panel.compare ? [one(`${panel.id}#previous`, panelCall(panel.source, filters, values, true))] : []),
      ...(panel.groupRows?.totals
        ? [one(`${panel.id}#totals`, panelCall(panel.groupRows.totals, filters, values))]
        : []),
    ];
  });
  const results = useGetPanelRows(screen.id, calls);
  const resultOf = (id: string) => {
    const i = calls.findIndex((c) => c.id === id);
    return i < 0 ? undefined : results[i];
  };

  const label = useFieldLabel(
    options.panels
      .flatMap((p) => [...(p.columns ?? []), p.x, p.seriesBy, ...(p.y ?? [])])
      .concat(
        filters.map((f) => (f.reference ? { field: f.name, titleKey: f.titleKey, reference: f.reference } : undefined)),
      ),
  );
  const periodFilter = periodFilterOf(filters);
  const period = periodFilter ? parsePeriod(values[periodFilter.name]) : undefined;
  const top = filters.filter((f) => !f.panel);

  return (
    <div data-screen={screen.id} className={s.root}>
      {options.back && (
        <ShellButton data-action="back" onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/'))}>
          ← {t('engine.dashboard.back')}
        </ShellButton>
      )}
      <div className={s.heading}>
        <Heading>{t(screen.titleKey)}</Heading>
        {period && (
          <p className={s.periodWords} data-period-words aria-live="polite">
            {periodWords(period, t)}
          </p>
        )}
      </div>
      {top.length > 0 && (
        <div className={s.filters} role="group" aria-label={t(screen.titleKey)}>
          {top.map((f) => (
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
      {tab && (
        <div className={s.tabs}>
          <TabList
            selectedValue={tab.id}
            onTabSelect={(_, d) => setParam(TAB, String(d.value))}
            aria-label={t('engine.dashboard.tabs')}
          >
            {tabs.map((x) => (
              <Tab key={x.id} value={x.id} data-tab={x.id}>
                {t(x.titleKey)}
              </Tab>
            ))}
          </TabList>
        </div>
      )}
      <div role={tab ? 'tabpanel' : undefined} aria-label={tab ? t(tab.titleKey) : undefined} className={s.panels}>
        {panels.map((panel) => (
          <Panel
            key={panel.id}
            screenId={screen.id}
            options={options}
            panel={panel}
            values={values}
            setFilter={setFilter}
            label={label}
            result={resultOf(panel.id)!}
            previous={resultOf(`${panel.id}#previous`)}
            totals={resultOf(`${panel.id}#totals`)}
            page={pages[panel.id] ?? 0}
            perPage={perPageOf(panel)}
            onPage={(page) => setPages((old) => ({ ...old, [panel.id]: page }))}
          />
        ))}
      </div>
    </div>
  );
}
