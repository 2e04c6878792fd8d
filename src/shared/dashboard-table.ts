import type { DashboardField, DashboardPanel } from '../generated/meta.ts';
import { DISPLAY_FORMATS, type DisplayFormat } from './cell-formats.ts';
import { totalsColumn } from './dashboard-query.ts';

/**
 * The rows of a dashboard table as a reader sees them, from the API's answers: compare
 * columns beside each numeric one, a heading row per group with a subtotal row after it, and
 * the grand total. Pure and isomorphic — the server's XLSX export lays out exactly this, and a
 * screen may too, so that what is downloaded is what is shown.
 */

/** One API row (`{list: [...]}` item). */
export type SourceRow = Readonly<Record<string, unknown>>;

/** One column of the laid-out table. */
export interface TableColumn {
  /** The row key the value is read from (`avgPrice`, `avgPrice@previous`, `avgPrice@change`). */
  key: string;
  /** The panel's column (for a compare column: the column it compares). */
  field: DashboardField;
  /** `value`: the number itself; `previous`: the previous period's; `change`: the relative change. */
  role: 'value' | 'previous' | 'change';
  /** Summed in subtotal and total rows. */
  total: boolean;
}

/** A row of the laid-out table. */
export type TableRow =
  | { kind: 'group'; value: unknown }
  | { kind: 'row'; values: Record<string, unknown> }
  | { kind: 'subtotal'; value: unknown; values: Record<string, unknown> }
  | { kind: 'total'; values: Record<string, unknown> };

/** A title over several neighbouring columns (the panel's `columnGroups`, widened by compare columns). */
export interface HeaderGroup {
  titleKey: string;
  /** Index of the first column it covers. */
  first: number;
  /** How many columns it covers. */
  span: number;
}

/** What the table is built from: the panel's rows and, where it declares them, the others. */
export interface PanelAnswers {
  rows: readonly SourceRow[];
  /** `compare: "previousPeriod"`: the same source for the previous period. */
  previous?: readonly SourceRow[];
  /** `groupRows.totals`: exact subtotals per group value. */
  totals?: readonly SourceRow[];
  /** The totals source for the previous period. */
  previousTotals?: readonly SourceRow[];
}

/** The laid-out table. */
export interface PanelTable {
  columns: TableColumn[];
  groups: HeaderGroup[];
  rows: TableRow[];
}

/** Whether a display format is a quantity. */
export const numericFormat = (format: string | undefined): boolean =>
  format !== undefined && Object.hasOwn(DISPLAY_FORMATS, format) && !!DISPLAY_FORMATS[format as DisplayFormat].numeric;

const PREVIOUS = '@previous';
const CHANGE = '@change';

/** A number, or undefined for anything else (null, text). */
const numberOf = (v: unknown): number | undefined => {
  if (v === null || v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** The sum of the numbers of `key` in `rows`; null when none is a number. */
function sumOf(rows: readonly SourceRow[], key: string): number | null {
  let sum: number | null = null;
  for (const r of rows) {
    const n = numberOf(r[key]);
    if (n !== undefined) sum = (sum ?? 0) + n;
  }
  return sum;
}

/**
 * The relative change from `previous` to `current` (0.25 = +25 %); null when either is missing
 * or the previous is 0 (no base to compare with).
 * @example relativeChange(125, 100) // 0.25
 */
export function relativeChange(current: unknown, previous: unknown): number | null {
  const c = numberOf(current);
  const p = numberOf(previous);
  return c === undefined || p === undefined || p === 0 ? null : (c - p) / p;
}

/**
 * The columns of a table panel: each of `panel.columns`, and with `compare` the previous value
 * and the change after each numeric one.
 */
export function panelColumns(panel: DashboardPanel, fields: readonly DashboardField[] = panel.columns ?? []) {
  const columns: TableColumn[] = [];
  for (const field of fields) {
    const total = totalsColumn(field, numericFormat);
    columns.push({ key: field.field, field, role: 'value', total });
    if (panel.compare && (total || numericFormat(field.format))) {
      columns.push({ key: field.field + PREVIOUS, field, role: 'previous', total });
      columns.push({ key: field.field + CHANGE, field, role: 'change', total: false });
    }
  }
  return columns;
}

/** The header groups of `panel.columnGroups` over the laid-out columns (compare columns included). */
function headerGroups(panel: DashboardPanel, columns: readonly TableColumn[]): HeaderGroup[] {
  const out: HeaderGroup[] = [];
  for (const g of panel.columnGroups ?? []) {
    const indexes = columns.flatMap((c, i) => (g.columns.includes(c.field.field) ? [i] : []));
    if (!indexes.length) continue;
    const first = Math.min(...indexes);
    out.push({ titleKey: g.titleKey, first, span: Math.max(...indexes) - first + 1 });
  }
  return out.sort((a, b) => a.first - b.first);
}

/**
 * Rows of the current period with the previous period's numbers beside them, matched on the
 * columns that are not quantities (the groups). A group only in the previous period still
 * gets a row (its current numbers empty), so the totals of both periods add up.
 */
function withPrevious(
  columns: readonly TableColumn[],
  rows: readonly SourceRow[],
  previous: readonly SourceRow[],
): SourceRow[] {
  const keys = columns.filter((c) => c.role === 'value' && !columns.some((o) => o.key === c.key + PREVIOUS));
  const keyOf = (r: SourceRow) => JSON.stringify(keys.map((c) => r[c.key] ?? null));
  const compared = columns.filter((c) => c.role === 'previous').map((c) => c.field.field);
  const before = new Map<string, SourceRow>();
  for (const r of previous) before.set(keyOf(r), r);
  const out: Array<Record<string, unknown>> = rows.map((r) => ({ ...r }));
  const seen = new Set(rows.map(keyOf));
  for (const r of previous) {
    if (seen.has(keyOf(r))) continue;
    out.push(Object.fromEntries(keys.map((c) => [c.key, r[c.key]])));
  }
  for (const r of out) {
    const p = before.get(keyOf(r));
    for (const f of compared) {
      r[f + PREVIOUS] = p?.[f] ?? null;
      r[f + CHANGE] = relativeChange(r[f], r[f + PREVIOUS]);
    }
  }
  return out;
}

/** The totals of `rows` (or of an exact totals row) for the summed columns, with the changes. */
function totalsOf(
  columns: readonly TableColumn[],
  rows: readonly SourceRow[],
  exact?: SourceRow,
  exactPrevious?: SourceRow,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const c of columns) {
    if (!c.total) continue;
    const source = c.role === 'previous' ? exactPrevious : exact;
    const field = c.role === 'previous' ? c.field.field : c.key;
    values[c.key] = source && field in source ? (numberOf(source[field]) ?? null) : sumOf(rows, c.key);
  }
  // The change of a summed column; an average's change has no total to come from.
  for (const c of columns)
    if (c.role === 'change' && c.field.field in values)
      values[c.key] = relativeChange(values[c.field.field], values[c.field.field + PREVIOUS]);
  return values;
}

/**
 * The laid-out table of a table panel (or a chart's table view, given its fields): compare
 * columns, group headings with subtotals (exact ones from the totals source where given), the
 * grand total (with `total` or `groupRows`). Every row is kept: a screen's `limit` does not
 * apply to what is downloaded.
 * @example buildPanelTable(panel, { rows, previous }).rows // [{ kind: 'group', value: 3 }, { kind: 'row', … }, { kind: 'subtotal', … }, { kind: 'total', … }]
 */
export function buildPanelTable(
  panel: DashboardPanel,
  answers: PanelAnswers,
  fields: readonly DashboardField[] = panel.columns ?? [],
): PanelTable {
  const columns = panelColumns(panel, fields);
  const rows = panel.compare ? withPrevious(columns, answers.rows, answers.previous ?? []) : [...answers.rows];
  const out: TableRow[] = [];
  const groupField = panel.groupRows?.field;
  if (groupField) {
    const byGroup = new Map<string, { value: unknown; rows: SourceRow[] }>();
    for (const r of rows) {
      const k = JSON.stringify(r[groupField] ?? null);
      if (!byGroup.has(k)) byGroup.set(k, { value: r[groupField] ?? null, rows: [] });
      byGroup.get(k)!.rows.push(r);
    }
    const exactOf = (list: readonly SourceRow[] | undefined, value: unknown) =>
      list?.find((t) => JSON.stringify(t[groupField] ?? null) === JSON.stringify(value));
    for (const { value, rows: members } of byGroup.values()) {
      out.push({ kind: 'group', value });
      for (const r of members) out.push({ kind: 'row', values: { ...r } });
      const exact = exactOf(answers.totals, value);
      const exactPrevious = exactOf(answers.previousTotals, value);
      out.push({ kind: 'subtotal', value, values: totalsOf(columns, members, exact, exactPrevious) });
    }
  } else {
    for (const r of rows) out.push({ kind: 'row', values: { ...r } });
  }
  if (panel.total || groupField) {
    // The exact totals rows, summed, are the grand total: they count groups the rows may not show.
    const grand = totalsOf(
      columns,
      rows,
      answers.totals && sumRow(columns, answers.totals),
      answers.previousTotals && sumRow(columns, answers.previousTotals),
    );
    out.push({ kind: 'total', values: grand });
  }
  return { columns, groups: headerGroups(panel, columns), rows: out };
}

/** One row holding the sums of the summed columns' fields over `rows`. */
function sumRow(columns: readonly TableColumn[], rows: readonly SourceRow[]): SourceRow {
  return Object.fromEntries(
    columns.filter((c) => c.role === 'value' && c.total).map((c) => [c.key, sumOf(rows, c.key)]),
  );
}
