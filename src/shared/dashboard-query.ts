import type { DashboardField, DashboardFilter, DashboardPanel, DashboardSource } from '../generated/meta.ts';
import { currentPeriod, parsePeriod, previousPeriod, quarterPeriod, type Period } from './periods.ts';

/**
 * How a dashboard panel becomes an API call and how its numbers become list links — one
 * module for the browser (the panels, the drill-down links) and the server (the XLSX export
 * of a panel), so what is downloaded and what is clicked is what is shown.
 */

/** The dashboard's filter values as they stand in the URL (name → text; '' = all). */
export type FilterValues = Record<string, string>;

/** One API call of a panel. */
export interface PanelCall {
  endpoint: string;
  method: 'GET' | 'POST';
  /** Query parameters (strings). */
  query: Record<string, string>;
  body?: Record<string, unknown>;
}

/** The name of the dashboard's period filter, if it has one. */
export const periodFilterOf = (filters: readonly DashboardFilter[] | undefined): DashboardFilter | undefined =>
  filters?.find((f) => f.period);

/**
 * The filter values in force: the URL's where it names a valid value, else each filter's
 * default (a period filter: the current month/quarter/year in Tashkent; a month filter: the
 * current month; a required choice: its first).
 */
export function effectiveValues(
  filters: readonly DashboardFilter[] | undefined,
  url: Readonly<Record<string, string | undefined>>,
  now: Date = new Date(),
): FilterValues {
  const out: FilterValues = {};
  for (const f of filters ?? []) {
    const given = url[f.name] ?? '';
    if (f.period) {
      const p = parsePeriod(given);
      const allowed = p && f.period.units.includes(p.unit);
      const unit = f.period.default ?? (f.period.units.find((u) => u !== 'custom') as 'month' | 'quarter' | 'year');
      // Custom ranges only: the current month as a range of days (a month text is no custom value).
      const fallback = unit ? currentPeriod(unit, now) : currentPeriod('month', now);
      out[f.name] = allowed ? p.text : unit ? fallback.text : `${fallback.from}..${fallback.to}`;
    } else if (given) out[f.name] = given;
    else if (f.default !== undefined) out[f.name] = String(f.default);
    else if (f.month) out[f.name] = currentPeriod('month', now).text;
    else if (f.choices && f.required) out[f.name] = f.choices[0]!.value;
    else out[f.name] = '';
  }
  return out;
}

/** The period the values name, or the previous one when `previous`. */
function periodOf(
  filters: readonly DashboardFilter[] | undefined,
  values: FilterValues,
  previous: boolean,
): Period | undefined {
  const f = periodFilterOf(filters);
  const p = f ? parsePeriod(values[f.name]) : undefined;
  return p && previous ? previousPeriod(p) : p;
}

/**
 * The whole quarters or years a period falls in: for sources whose records stand for a quarter
 * or a year (a rating, a year plan), so that a month or a quarter of the dashboard finds them.
 * @example widenPeriod(parsePeriod('2025-Q3')!, 'year') // 2025-01-01 … 2025-12-31
 */
export function widenPeriod(p: Period, unit: 'quarter' | 'year'): Period {
  const start = (d: string) =>
    unit === 'year'
      ? `${d.slice(0, 4)}-01-01`
      : `${d.slice(0, 5)}${String(Math.floor((Number(d.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
  const end = (d: string) => {
    if (unit === 'year') return `${d.slice(0, 4)}-12-31`;
    const q = Math.ceil(Number(d.slice(5, 7)) / 3);
    return quarterPeriod(Number(d.slice(0, 4)), q).to;
  };
  const from = start(p.from);
  const to = end(p.to);
  return { unit: 'custom', text: `${from}..${to}`, from, to };
}

/** The query parameters a source takes from the dashboard's values (period as `<name>From`/`<name>To`). */
function sourceQuery(
  source: DashboardSource,
  filters: readonly DashboardFilter[] | undefined,
  values: FilterValues,
  previous: boolean,
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(source.query ?? {})) query[k] = String(v);
  for (const name of source.filters ?? []) if (values[name]) query[name] = values[name]!;
  const chosen = source.period ? periodOf(filters, values, previous) : undefined;
  const period = chosen && source.periodWiden ? widenPeriod(chosen, source.periodWiden) : chosen;
  if (source.period && period) {
    query[`${source.period}From`] = period.from;
    query[`${source.period}To`] = period.to;
  }
  return query;
}

/**
 * The call a panel's source (or another source of it, such as `groupRows.totals`) makes for
 * the given filter values; `previous` asks for the previous period (comparison).
 * @example panelCall(panel.source, options.filters, { period: '2025-Q3', regionId: '3' })
 *   // { endpoint: '/api/appeal/aggregate/by-type', method: 'GET', query: { regionId: '3', createdDateFrom: '2025-07-01', createdDateTo: '2025-09-30' } }
 */
export function panelCall(
  source: DashboardSource,
  filters: readonly DashboardFilter[] | undefined,
  values: FilterValues,
  previous = false,
): PanelCall {
  return {
    endpoint: source.endpoint,
    method: source.method ?? 'GET',
    query: sourceQuery(source, filters, values, previous),
    ...(source.body ? { body: source.body } : {}),
  };
}

/** The entity base and aggregate name of an aggregate endpoint (`/api/appeal/aggregate/by-type`). */
export function aggregateOf(endpoint: string): { base: string; name: string } | undefined {
  const m = /^\/api(\/.+)\/aggregate\/([a-z0-9-]+)$/.exec(endpoint);
  return m ? { base: m[1]!, name: m[2]! } : undefined;
}

/** A number, when the text is one. */
const numeric = (s: string): number | undefined => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : undefined);

/**
 * Two values of one list parameter that must both hold (the aggregate applies the dashboard's
 * filter, the row's group and the measure's filter together): the later lower bound of a
 * `…From`, the earlier upper bound of a `…To`, the common items of two lists (an `in` or `eq`
 * value). With no common item the number is 0 and the later value stands.
 * @example narrowed('createdDateTo', '2025-09-30', '2025-08-15') // '2025-08-15'
 * @example narrowed('statuses', 'SEEN,EXPLAINED', 'EXPLAINED,REJECTED') // 'EXPLAINED'
 */
export function narrowed(name: string, before: string, after: string): string {
  if (before === after) return after;
  const bound = /From$/.test(name) ? 1 : /To$/.test(name) ? -1 : 0;
  if (bound) {
    const [a, b] = [numeric(before), numeric(after)];
    const order = a !== undefined && b !== undefined ? Math.sign(a - b) : before < after ? -1 : 1;
    return order === bound ? before : after;
  }
  const later = new Set(after.split(',').map((v) => v.trim()));
  const common = before.split(',').filter((v) => later.has(v.trim()));
  return common.length ? common.join(',') : after;
}

/**
 * The list query a number leads to: the source's query for the dashboard's values (the
 * period as the list's date-range filter, the region…), the row's group values under the list
 * filter names (`drill.by`, else the same name; the renames apply to the dashboard's filters
 * too), and the measure's own filter (from the aggregate's measure declaration). Fixed `source.query` parameters that are not list
 * filters (such as `bucket`) are left to the caller's `listFilters` set: only names in it go.
 * @example drillQuery(panel, filters, values, { regionId: 3 }, { statuses: 'SEEN,BEING_REVIEWED' }, names)
 */
export function drillQuery(
  panel: DashboardPanel,
  filters: readonly DashboardFilter[] | undefined,
  values: FilterValues,
  group: Readonly<Record<string, unknown>>,
  measureFilter: Readonly<Record<string, string | number | boolean | Array<string | number>>> | undefined,
  listFilters: ReadonlySet<string>,
): URLSearchParams {
  const params = new URLSearchParams();
  const put = (name: string, value: unknown) => {
    if (value === null || value === undefined || value === '') return;
    if (!listFilters.has(name)) return;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    const before = params.get(name);
    // Set twice (the dashboard's filter, the row's group, the measure's filter): what both allow.
    params.set(name, before === null ? text : narrowed(name, before, text));
  };
  // `drill.by` renames a dashboard filter of the same name too (regionId → regionIds).
  for (const [k, v] of Object.entries(sourceQuery(panel.source, filters, values, false)))
    put(panel.drill?.by?.[k] ?? k, v);
  for (const [field, value] of Object.entries(group)) put(panel.drill?.by?.[field] ?? field, value);
  for (const [k, v] of Object.entries(measureFilter ?? {})) put(k, v);
  return params;
}

/** Whether a column counts in total rows: its own `total`, else numeric formats do. */
export const totalsColumn = (column: DashboardField, numeric: (format: string | undefined) => boolean): boolean =>
  column.total ?? numeric(column.format);
