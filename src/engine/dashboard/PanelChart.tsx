import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { DashboardPanel } from '../../generated/meta.ts';
import { PageSpinner } from '../common/primitives.tsx';
import type { Drill } from './drill.ts';
import type { Label } from './label.ts';
import { DrillNumber } from './PanelTable.tsx';
import type { Row } from './table-model.ts';
import { useStyles } from './styles.ts';

// apexcharts arrives only with a chart panel, never with the first visit.
const DashboardChart = lazy(() => import('./Chart.tsx'));

/**
 * A bar or line chart panel with, for keyboard and screen-reader users, the same numbers as a
 * table (and its download). Every segment and every number of the table leads to the list
 * behind it (the category's and the series' values as the group).
 */
export function PanelChart({
  panel,
  rows,
  label,
  drill,
  download,
}: {
  panel: DashboardPanel;
  rows: Row[];
  label: Label;
  drill: Drill;
  download: ReactNode;
}) {
  const { t } = useTranslation();
  const s = useStyles();
  const navigate = useNavigate();
  const x = panel.x!;
  const ys = panel.y ?? [];
  const by = panel.seriesBy;
  const chart = useMemo(() => {
    const categories = [...new Set(rows.map((r) => String(r[x.field])))];
    const raw = (c: string) => rows.find((r) => String(r[x.field]) === c)?.[x.field];
    const series = by
      ? [...new Set(rows.map((r) => r[by.field]))].map((key) => ({
          name: label(by, key),
          field: ys[0]!,
          data: categories.map((c) => {
            const row = rows.find((r) => String(r[x.field]) === c && r[by.field] === key);
            return row ? Number(row[ys[0]!.field]) : null;
          }),
          group: (c: string) => ({ [x.field]: raw(c), [by.field]: key }),
        }))
      : ys.map((y) => ({
          name: t(y.titleKey),
          field: y,
          data: categories.map((c) => Number(rows.find((r) => String(r[x.field]) === c)?.[y.field] ?? 0)),
          group: (c: string) => ({ [x.field]: raw(c) }),
        }));
    return { categories, series };
  }, [rows, label, t, x.field, ys, by]);
  const format = (v: number) => label(ys[0], v);
  const hrefOf = (si: number, ci: number) => {
    const se = chart.series[si];
    const c = chart.categories[ci];
    return se && c !== undefined && se.data[ci] !== null ? drill.href(se.field, se.group(c)) : undefined;
  };
  const drills = chart.series.some((_, i) => chart.categories.some((_, j) => hrefOf(i, j)));
  return (
    <>
      <div className={s.chartBox}>
        <Suspense fallback={<PageSpinner label={t('engine.dashboard.loading')} />}>
          <DashboardChart
            kind={panel.kind === 'line' ? 'line' : 'bar'}
            categories={chart.categories.map((c) => label(x, c))}
            series={chart.series.map(({ name, data }) => ({ name, data }))}
            xTitle={t(x.titleKey)}
            yTitle={t(ys[0]?.titleKey ?? '')}
            label={t('engine.dashboard.chartLabel', { title: t(panel.titleKey) })}
            format={format}
            onSelect={
              drills
                ? (si, ci) => {
                    const href = hrefOf(si, ci);
                    if (href) navigate(href);
                  }
                : undefined
            }
          />
        </Suspense>
      </div>
      <details className={s.details}>
        <summary>{t('engine.dashboard.asTable')}</summary>
        {download}
        <div className={s.scroll} data-scroll tabIndex={0} role="region" aria-label={t(panel.titleKey)}>
          <table className={s.table}>
            <thead>
              <tr>
                <th scope="col" className={s.th}>
                  {t(x.titleKey)}
                </th>
                {chart.series.map((se) => (
                  <th key={se.name} scope="col" className={s.thNum}>
                    {se.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {chart.categories.map((c, i) => (
                <tr key={c}>
                  <td className={s.td}>{label(x, c)}</td>
                  {chart.series.map((se, j) => (
                    <td key={se.name} className={s.num} data-cell={se.field.field}>
                      {se.data[i] === null ? '—' : <DrillNumber href={hrefOf(j, i)} text={format(se.data[i]!)} />}
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
