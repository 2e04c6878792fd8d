import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { mergeClasses } from '@fluentui/react-components';
import type { DashboardField, DashboardPanel } from '../../generated/meta.ts';
import { DISPLAY_FORMATS, type DisplayFormat } from '../../shared/cell-formats.ts';
import { formatNumber } from '../../shared/format.ts';
import { pickLocale } from '../../shared/locales.ts';
import type { Drill } from './drill.ts';
import type { Label } from './label.ts';
import { change, isNumeric, totalColumns, type TableLine } from './table-model.ts';
import { useStyles } from './styles.ts';

/** A number, as a link to its list when the drill-down gives one. */
export function DrillNumber({ href, text }: { href: string | undefined; text: string }) {
  const { t } = useTranslation();
  return href ? (
    <Link to={href} data-drill title={t('engine.dashboard.drill', { value: text })}>
      {text}
    </Link>
  ) : (
    <>{text}</>
  );
}

/** The previous period's value and the change ▲/▼ with its percentage (compare). */
export function Change({
  column,
  now,
  before,
  label,
}: {
  column: DashboardField;
  now: unknown;
  before: unknown;
  label: Label;
}) {
  const { t, i18n } = useTranslation();
  const s = useStyles();
  const { dir, pct } = change(now, before);
  const pctText = pct === null ? '' : `${formatNumber(Math.round(pct * 10) / 10, pickLocale(i18n.language))}%`;
  const words = dir === 'same' ? t('engine.dashboard.same') : t(`engine.dashboard.${dir}`, { pct: pctText });
  return (
    <span className={s.compare}>
      <span data-previous>{t('engine.dashboard.previous', { value: label(column, before ?? 0) })}</span>{' '}
      <span data-change={dir} className={dir === 'up' ? s.up : dir === 'down' ? s.down : undefined} title={words}>
        <span aria-hidden="true">{dir === 'up' ? '▲' : dir === 'down' ? '▼' : '='}</span>
        {pctText && ` ${pctText}`}
        <span className={s.visuallyHidden}>{words}</span>
      </span>
    </span>
  );
}

const formatOf = (c: DashboardField) =>
  c.format && Object.hasOwn(DISPLAY_FORMATS, c.format) ? DISPLAY_FORMATS[c.format as DisplayFormat] : undefined;

/**
 * A table panel: a second header row for `columnGroups`, group heading rows, subtotals, the
 * total row; numbers link to their lists (drill-down) and, with `compare`, show the previous
 * period's value and the change under them.
 */
export function PanelTable({
  panel,
  lines,
  label,
  drill,
  compare,
}: {
  panel: DashboardPanel;
  lines: TableLine[];
  label: Label;
  drill: Drill;
  compare: boolean;
}) {
  const { t } = useTranslation();
  const s = useStyles();
  const columns = panel.columns ?? [];
  const summed = new Set(totalColumns(columns).map((c) => c.field));
  const groups = panel.columnGroups ?? [];
  const groupOf = (field: string) => groups.find((g) => g.columns.includes(field));
  const groupField = panel.groupRows?.field;
  // data-row numbers the data rows only (headings and totals between them do not count).
  const rowIndex = lines.map((_, i) => lines.slice(0, i).filter((l) => l.kind === 'row').length);
  const groupColumn = columns.find((c) => c.field === groupField) ?? { field: groupField ?? '', titleKey: '' };

  const cell = (c: DashboardField, line: TableLine, first: boolean): ReactNode => {
    const value = line.row[c.field];
    if (line.kind === 'subtotal' || line.kind === 'total') {
      if (first && !summed.has(c.field)) return t(`engine.dashboard.${line.kind}`);
      if (!summed.has(c.field)) return '';
    }
    const shown = formatOf(c);
    if (shown?.href && typeof value === 'string')
      return (
        <a href={value} download>
          {t(c.titleKey)}
        </a>
      );
    const numeric = isNumeric(c.format) || summed.has(c.field);
    const text = label(c, value);
    if (!numeric || value === null || value === undefined) return text;
    return (
      <>
        <DrillNumber href={drill.href(c, line.group)} text={text} />
        {compare && <Change column={c} now={value} before={line.previous?.[c.field]} label={label} />}
      </>
    );
  };

  return (
    <div className={s.scroll} data-scroll tabIndex={0} role="region" aria-label={t(panel.titleKey)}>
      <table className={mergeClasses(s.table, s.stacked)}>
        <thead>
          {groups.length > 0 && (
            <tr data-header="groups">
              {columns.map((c) => {
                const g = groupOf(c.field);
                if (!g)
                  return (
                    <th key={c.field} scope="col" rowSpan={2} className={s.th}>
                      {t(c.titleKey)}
                    </th>
                  );
                if (g.columns[0] !== c.field && columns.some((o) => o.field === g.columns[0])) return null;
                return (
                  <th key={c.field} scope="colgroup" colSpan={g.columns.length} className={s.thGroup}>
                    {t(g.titleKey)}
                  </th>
                );
              })}
            </tr>
          )}
          <tr data-header="columns">
            {columns
              .filter((c) => !groups.length || groupOf(c.field))
              .map((c) => (
                <th key={c.field} scope="col" className={isNumeric(c.format) ? s.thNum : s.th}>
                  {t(c.titleKey)}
                </th>
              ))}
          </tr>
        </thead>
        <tbody>
          {lines.map((line, i) =>
            line.kind === 'heading' ? (
              <tr key={i} data-line="heading">
                <th scope="rowgroup" colSpan={columns.length} className={s.groupHeading}>
                  {label(groupColumn, line.row[groupField ?? ''])}
                </th>
              </tr>
            ) : (
              <tr
                key={i}
                data-line={line.kind}
                data-row={line.kind === 'row' ? rowIndex[i] : undefined}
                className={line.kind === 'row' ? undefined : s.totalRow}
              >
                {columns.map((c, j) => (
                  <td
                    key={c.field}
                    data-cell={c.field}
                    data-label={t(c.titleKey)}
                    className={isNumeric(c.format) || summed.has(c.field) ? s.num : s.td}
                  >
                    {cell(c, line, j === 0)}
                  </td>
                ))}
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}
