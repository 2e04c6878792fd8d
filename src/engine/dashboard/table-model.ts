import type { DashboardField, DashboardPanel } from '../../generated/meta.ts';
import { totalsColumn } from '../../shared/dashboard-query.ts';
import { DISPLAY_FORMATS, type DisplayFormat } from '../../shared/cell-formats.ts';

/** One answer row of a panel's source. */
export type Row = Record<string, unknown>;

/**
 * One line of a table panel as drawn: a data row, a group's heading, a group's subtotal or the
 * grand total. `group` holds the group values the line stands for (what a drill-down link
 * filters by): a row's own group fields, the group's value, nothing for the grand total.
 */
export interface TableLine {
  kind: 'row' | 'heading' | 'subtotal' | 'total';
  row: Row;
  group: Row;
  /** The same line in the previous period (compare), when there is one. */
  previous?: Row | undefined;
}

/** Whether a field's format is a quantity (right-aligned, summed, compared). */
export const isNumeric = (format: string | undefined): boolean =>
  Boolean(format && Object.hasOwn(DISPLAY_FORMATS, format) && DISPLAY_FORMATS[format as DisplayFormat].numeric);

/** The columns summed in subtotal and total rows. */
export const totalColumns = (columns: readonly DashboardField[]): DashboardField[] =>
  columns.filter((c) => totalsColumn(c, isNumeric));

const sum = (rows: readonly Row[], columns: readonly DashboardField[]): Row =>
  Object.fromEntries(
    columns.map((c) => [c.field, rows.reduce((acc, r) => acc + (Number(r[c.field]) || 0), 0)] as const),
  );

const pick = (row: Row, fields: readonly string[]): Row => Object.fromEntries(fields.map((f) => [f, row[f]]));
const keyOf = (row: Row, fields: readonly string[]): string => JSON.stringify(fields.map((f) => row[f] ?? null));

/**
 * The lines of a table panel: its rows (the first `limit` when it has one), grouped under a
 * heading per `groupRows.field` value with a subtotal after each group — from the `groupRows.totals`
 * rows when given (exact even when the table shows only its first rows), else summed over every
 * row of the group — and a grand total when `total` or `groupRows` asks for one. With
 * `previousRows` (compare), each line carries the previous period's line matched by its group
 * values (`groupFields`).
 * @example tableLines(panel, rows, { groupFields: ['regionId'] })
 */
export function tableLines(
  panel: Pick<DashboardPanel, 'columns' | 'groupRows' | 'total' | 'limit'>,
  rows: readonly Row[],
  {
    groupFields,
    totalsRows,
    previousRows,
  }: {
    groupFields: readonly string[];
    totalsRows?: readonly Row[] | undefined;
    previousRows?: readonly Row[] | undefined;
  },
): TableLine[] {
  const summed = totalColumns(panel.columns ?? []);
  const shown = panel.limit ? rows.slice(0, panel.limit) : rows;
  const previousOf = (fields: readonly string[], row: Row): Row | undefined => {
    if (!previousRows) return undefined;
    const key = keyOf(row, fields);
    const same = previousRows.filter((p) => keyOf(p, fields) === key);
    return same.length ? sum(same, summed) : fields.length ? undefined : sum(previousRows, summed);
  };
  const line = (row: Row): TableLine => ({
    kind: 'row',
    row,
    group: pick(row, groupFields),
    previous: previousRows ? previousRows.find((p) => keyOf(p, groupFields) === keyOf(row, groupFields)) : undefined,
  });
  const out: TableLine[] = [];
  const by = panel.groupRows?.field;
  if (by) {
    const values = [...new Set(shown.map((r) => JSON.stringify(r[by] ?? null)))].map((v) => JSON.parse(v) as unknown);
    for (const value of values) {
      const group = { [by]: value };
      out.push({ kind: 'heading', row: group, group });
      for (const row of shown) if (JSON.stringify(row[by] ?? null) === JSON.stringify(value)) out.push(line(row));
      const exact = totalsRows?.find((r) => JSON.stringify(r[by] ?? null) === JSON.stringify(value));
      const members = rows.filter((r) => JSON.stringify(r[by] ?? null) === JSON.stringify(value));
      out.push({
        kind: 'subtotal',
        row: {
          ...group,
          ...(exact
            ? pick(
                exact,
                summed.map((c) => c.field),
              )
            : sum(members, summed)),
        },
        group,
        previous: previousOf([by], group),
      });
    }
  } else out.push(...shown.map(line));
  if (panel.total || by)
    out.push({
      kind: 'total',
      row: totalsRows?.length && by ? sum(totalsRows, summed) : sum(rows, summed),
      group: {},
      previous: previousOf([], {}),
    });
  return out;
}

/** The change from the previous value: its direction and percentage (none when the previous is 0 or missing). */
export function change(current: unknown, previous: unknown): { dir: 'up' | 'down' | 'same'; pct: number | null } {
  const now = Number(current) || 0;
  const before = Number(previous) || 0;
  const dir = now > before ? 'up' : now < before ? 'down' : 'same';
  return { dir, pct: before ? (Math.abs(now - before) / Math.abs(before)) * 100 : null };
}
