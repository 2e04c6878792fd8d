import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DashboardField, DashboardFilter, DashboardPanel, DashboardSource } from '../../generated/meta.ts';
import { panelCall, type FilterValues, type PanelCall } from '../../shared/dashboard-query.ts';
import type { PanelAnswers, SourceRow } from '../../shared/dashboard-table.ts';
import { MAX_PAGE_SIZE } from '../store/list-query.ts';

/**
 * The API answers one dashboard panel is drawn from, asked exactly as the screen asks them
 * (`panelCall` of src/shared/dashboard-query.ts) and through the API itself (`app.inject`
 * with the caller's own authorization, address and language), so the scope, the rights, the
 * validation and the refusals of a download are those of the screen: a regional head's file
 * holds their region only.
 */

/** An answer of the API that is not a success: passed on to the caller as it is. */
export class ForwardedReply extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
  ) {
    super(`the panel's source answered ${statusCode}`);
  }
}

/** Calls one endpoint as the caller; `{list, total?, totalCapped?}` or a {@link ForwardedReply}. */
async function callAs(
  app: FastifyInstance,
  request: FastifyRequest,
  call: PanelCall,
  body?: Record<string, unknown>,
): Promise<{ list: SourceRow[]; total?: number }> {
  const query = new URLSearchParams({ ...call.query, lang: request.locale });
  const headers: Record<string, string> = { 'accept-language': request.locale };
  for (const name of ['authorization', 'cookie'] as const) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const res = await app.inject({
    method: call.method,
    url: `${call.endpoint}?${query}`,
    headers,
    remoteAddress: request.ip,
    ...((body ?? call.body) ? { payload: (body ?? call.body) as never } : {}),
  });
  let parsed: unknown;
  try {
    parsed = res.json();
  } catch {
    parsed = { message: res.body };
  }
  if (res.statusCode !== 200) throw new ForwardedReply(res.statusCode, parsed);
  const answer = parsed as { list?: unknown; total?: unknown };
  if (!Array.isArray(answer.list)) throw new ForwardedReply(502, { message: 'The panel source answered no list' });
  return { list: answer.list as SourceRow[], ...(typeof answer.total === 'number' ? { total: answer.total } : {}) };
}

/** A list-search source: every page up to `cap` rows (the list's own count cap), the largest pages it takes. */
async function allPages(
  app: FastifyInstance,
  request: FastifyRequest,
  call: PanelCall,
  cap: number,
): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for (let page = 0; rows.length < cap; page++) {
    const answer = await callAs(app, request, call, { ...call.body, page, itemsPerPage: MAX_PAGE_SIZE });
    rows.push(...answer.list);
    if (answer.list.length < MAX_PAGE_SIZE || (answer.total !== undefined && rows.length >= answer.total)) break;
  }
  return rows.slice(0, cap);
}

/** Whether a source is a paged list (list-search): its screen shows a page, its file every row. */
const paged = (source: DashboardSource): boolean =>
  (source.method ?? 'GET') === 'POST' && /\/list-search$/.test(source.endpoint);

/**
 * Every answer a panel needs for the given filter values: its rows, with `compare` the
 * previous period's, with `groupRows.totals` the exact subtotals (for both periods).
 */
export async function panelAnswers(
  app: FastifyInstance,
  request: FastifyRequest,
  panel: DashboardPanel,
  filters: readonly DashboardFilter[] | undefined,
  values: FilterValues,
): Promise<PanelAnswers> {
  const rowsOf = async (source: DashboardSource, previous: boolean): Promise<SourceRow[]> => {
    const call = panelCall(source, filters, values, previous);
    return paged(source)
      ? allPages(app, request, call, app.config.listCountCap)
      : (await callAs(app, request, call)).list;
  };
  const totals = panel.groupRows?.totals;
  const compare = panel.compare === 'previousPeriod';
  return {
    rows: await rowsOf(panel.source, false),
    ...(compare ? { previous: await rowsOf(panel.source, true) } : {}),
    ...(totals ? { totals: await rowsOf(totals, false) } : {}),
    ...(totals && compare ? { previousTotals: await rowsOf(totals, true) } : {}),
  };
}

/** A chart's table view: the category column and one column per value field, or per series. */
export interface ChartTable {
  fields: DashboardField[];
  rows: SourceRow[];
  /** The titles of series columns (the series value as shown), by field. */
  seriesTitles: Map<string, unknown>;
}

/**
 * The table a chart shows as its accessible view: without `seriesBy`, `x` and the `y` fields;
 * with it, one row per `x` value and one column per series value holding the first `y`.
 * @example chartTable(panel, [{ bucket: '2025-07', fuelTypeId: 1, avgPrice: 9 }]) // fields bucket, series:1
 */
export function chartTable(panel: DashboardPanel, rows: readonly SourceRow[]): ChartTable {
  const x = panel.x!;
  const ys = panel.y ?? [];
  if (!panel.seriesBy || !ys.length) return { fields: [x, ...ys], rows: [...rows], seriesTitles: new Map() };
  const seriesField = panel.seriesBy.field;
  const y = ys[0]!;
  const seriesTitles = new Map<string, unknown>();
  const byX = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const key = `series:${JSON.stringify(row[seriesField] ?? null)}`;
    if (!seriesTitles.has(key)) seriesTitles.set(key, row[seriesField] ?? null);
    const xKey = JSON.stringify(row[x.field] ?? null);
    if (!byX.has(xKey)) byX.set(xKey, { [x.field]: row[x.field] });
    byX.get(xKey)![key] = row[y.field];
  }
  const fields: DashboardField[] = [
    x,
    ...[...seriesTitles.keys()].map((key) => ({ ...y, field: key, titleKey: y.titleKey })),
  ];
  return { fields, rows: [...byX.values()], seriesTitles };
}
