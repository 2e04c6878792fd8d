import type { EntityDefinition } from '../../definitions/registry.ts';
import type { EntityTable, SqlType } from '../db/entity-table.ts';
import { FILTER_KINDS } from '../../shared/filter-kinds.ts';
import { filterConditions, keywordLike, type FilterSqlContext } from './filter-sql.ts';
import { ApiError } from '../errors.ts';
import { INPUT_NUMBER_LIMIT } from '../hostile-input.ts';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import type { JSONSchema7 } from 'json-schema';
import { isHiddenField, touchesHiddenField } from '../../shared/hidden-fields.ts';
import { rowScope, type Actor } from '../auth/access.ts';
import { RECORD_COLUMNS } from './record-row.ts';
import { BUSINESS_TIME_ZONE } from '../../shared/time-zone.ts';
import { sqlText } from '../../shared/pointer.ts';

/**
 * The list query of an entity, and every statement over its rows that a list reads: the
 * wire contract (payload and filter schemas), the WHERE and ORDER BY built from them, the
 * reader's row scope, the page and its capped count, keyset-paged streaming and keyword search.
 * The store (entity-store.ts) checks who may read and runs these; bench:api times the same text.
 */

/** The spec's search payload (`page` is 0-based on the wire). */
export interface SearchPayload {
  page?: number;
  itemsPerPage?: number;
  sortBy?: string[];
  sortDesc?: boolean[];
  groupBy?: string[];
  groupDesc?: boolean[];
  multiSort?: boolean;
  mustSort?: boolean;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Default for how far list-search counts (LIST_COUNT_CAP). */
export const DEFAULT_COUNT_CAP = 10_000;
/** Rows per query of a streamed list. */
export const STREAM_BATCH_SIZE = 1000;

/** JSON schema of the search payload body. */
export const searchPayloadSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 0, default: 0 },
    itemsPerPage: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    sortBy: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 100 } },
    sortDesc: { type: 'array', maxItems: 5, items: { type: 'boolean' } },
    groupBy: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 100 } },
    groupDesc: { type: 'array', maxItems: 5, items: { type: 'boolean' } },
    multiSort: { type: 'boolean' },
    mustSort: { type: 'boolean' },
  },
} as const;

/**
 * JSON schema of list-search's query string, derived from the grid's filters: `eq` takes
 * the field's type, `in` a comma-separated list, ranges `<name>From`/`<name>To`.
 */
export function filterQuerySchema(def: Pick<EntityDefinition, 'grid' | 'schema'>): JSONSchema7 {
  const properties: Record<string, JSONSchema7> = {};
  for (const f of def.grid.filters) {
    const field = f.field ? resolveFieldSchema(def.schema, f.field) : undefined;
    const scalar: JSONSchema7 = field ? pickScalar(field) : { type: 'string', maxLength: 200 };
    Object.assign(properties, FILTER_KINDS[f.kind].querySchema(f.name, scalar));
  }
  return { type: 'object', additionalProperties: false, properties };
}

function pickScalar(field: JSONSchema7): JSONSchema7 {
  const type = scalarType(field);
  if (type === 'integer' || type === 'number' || type === 'boolean') return { type };
  return { type: 'string', maxLength: 200 };
}

/** `createdAt`, `customer.surname` or `/customer/surname` → `/customer/surname`. */
export const normalizeSortField = (name: string): string =>
  name.startsWith('/') ? name : `/${name.split('.').join('/')}`;

/**
 * Builds the WHERE and ORDER BY of a list-search from the query filters and the payload.
 * Unknown sort fields are refused (400) rather than ignored, so a client bug is visible.
 * `hidden` are the fields the reader may not read: filtering or sorting by one is refused like
 * an unknown filter or sort (it would tell their values), and the keyword searches the other
 * keyword fields only.
 */
export function buildListQuery(
  def: EntityDefinition,
  table: EntityTable,
  filters: Record<string, unknown>,
  payload: SearchPayload,
  hidden: readonly string[] = [],
  actorId: string | null = null,
  viewerUnit: number | null = null,
) {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const columnOf = (pointer: string): string => table.columns.get(pointer)!.column;
  const sql: FilterSqlContext = {
    column: (pointer) => table.columns.get(pointer)!,
    param,
    keywordText: () => keywordColumn(def, table, hidden),
    actorId: () => actorId,
    viewerUnit: () => viewerUnit,
  };
  for (const f of def.grid.filters) {
    const given = [f.name, `${f.name}From`, `${f.name}To`].some(
      (name) => filters[name] !== undefined && filters[name] !== '',
    );
    if (given && f.field && touchesHiddenField(hidden, f.field))
      throw new ApiError(400, 'errors.badFilter', { params: { name: f.name } });
    where.push(...filterConditions(f, filters, sql));
  }

  const sortable = new Set([
    ...def.grid.columns.filter((c) => c.sortable).map((c) => c.field),
    ...def.grid.defaultSort.map((s) => s.field),
  ]);
  let sort = (payload.sortBy ?? []).map((name, i) => ({
    field: normalizeSortField(name),
    desc: payload.sortDesc?.[i] === true,
    name,
  }));
  if (payload.multiSort === false) sort = sort.slice(0, 1);
  // Grouped lists (the data table's groupBy) must arrive with each group's rows together.
  const groups = (payload.groupBy ?? []).map((name, i) => ({
    field: normalizeSortField(name),
    desc: payload.groupDesc?.[i] === true,
    name,
  }));
  sort = [...groups, ...sort.filter((s) => !groups.some((g) => g.field === s.field))];
  for (const s of sort) {
    if (!sortable.has(s.field) || !table.columns.has(s.field) || isHiddenField(hidden, s.field))
      throw new ApiError(400, 'errors.badSort', { params: { field: s.name } });
  }
  // The order of a hidden field would tell its values: such a default sort falls back to the id.
  if (!sort.length)
    sort = def.grid.defaultSort
      .filter((s) => !isHiddenField(hidden, s.field))
      .map((s) => ({ field: s.field, desc: s.desc === true, name: s.field }));
  const last = sort[sort.length - 1] ?? { field: '/id', desc: true, name: 'id' };
  const keys: SortKey[] = [
    ...sort.map((s) => ({ column: columnOf(s.field), type: table.columns.get(s.field)!.type, desc: s.desc })),
    // A unique tie-breaker makes pages stable; its direction follows the last key so an index serves both.
    ...(sort.some((s) => s.field === '/id') ? [] : [{ column: 'id', type: 'bigint' as const, desc: last.desc }]),
  ];
  const itemsPerPage = payload.itemsPerPage ?? DEFAULT_PAGE_SIZE;
  const page = payload.page ?? 0;
  return {
    where: where.length ? `WHERE ${where.join(' AND ')}` : '',
    orderBy: `ORDER BY ${keys.map((k) => `${k.column} ${k.desc ? 'DESC' : 'ASC'}`).join(', ')}`,
    params,
    keys,
    limit: itemsPerPage,
    offset: page * itemsPerPage,
  };
}

/**
 * The keyword text to search: the stored `keywords` column, or — for a reader who may not see
 * some keyword fields — the text of the others, computed from `data` (no index; such readers'
 * scopes are narrow).
 */
export function keywordColumn(def: EntityDefinition, table: EntityTable, hidden: readonly string[]): string {
  const fields = def.manifest.keywordFields ?? [];
  const visible = fields.filter((p) => !isHiddenField(hidden, p));
  return visible.length === fields.length || !table.keywordExpr
    ? 'keywords'
    : `(${table.keywordExpr('data', visible)})`;
}

/** One ORDER BY key of a list query; the last one is unique (the id), so the order is total. */
export interface SortKey {
  /** Quoted SQL column. */
  column: string;
  type: SqlType;
  desc: boolean;
}

/**
 * The keyset condition "comes after this row" for an ORDER BY of `keys`, following
 * PostgreSQL's default null placement (ASC → NULLS LAST, DESC → NULLS FIRST). `after` holds
 * the previous row's key values as text (`column::text`), so timestamps and numerics
 * round-trip exactly; they are cast back to the column type in SQL.
 * @example keysetCondition([{ column: 'id', type: 'bigint', desc: true }], ['41'], p) // '((id < $1::bigint))'
 */
export function keysetCondition(
  keys: readonly SortKey[],
  after: ReadonlyArray<string | null>,
  param: (value: unknown) => string,
): string {
  const alternatives: string[] = [];
  const equalSoFar: string[] = [];
  keys.forEach((key, i) => {
    const value = after[i] ?? null;
    const typed = value === null ? '' : `${param(value)}::${key.type}`;
    let beyond: string | undefined;
    if (key.desc) beyond = value === null ? `${key.column} IS NOT NULL` : `${key.column} < ${typed}`;
    else if (value !== null) beyond = `(${key.column} > ${typed} OR ${key.column} IS NULL)`;
    // Ascending past a null: nothing non-null follows, only equal nulls, handled by later keys.
    if (beyond) alternatives.push([...equalSoFar, beyond].join(' AND '));
    equalSoFar.push(value === null ? `${key.column} IS NULL` : `${key.column} = ${typed}`);
  });
  return alternatives.length ? `(${alternatives.map((a) => `(${a})`).join(' OR ')})` : 'FALSE';
}

/** The WHERE, ORDER BY, keys and page of one list query ({@link buildListQuery}). */
export type ListQuery = ReturnType<typeof buildListQuery>;

/**
 * `q` narrowed to the rows the actor may see (auth/access.ts `rowScope`); every row of a
 * public registry (manifest `publicRead`).
 */
export function scopedQuery<Q extends { where: string; params: unknown[] }>(
  def: EntityDefinition,
  q: Q,
  actor: Actor,
): Q {
  if (def.manifest.publicRead) return q;
  const params = [...q.params];
  const condition = rowScope(actor, def, (v) => `$${params.push(v)}`);
  return condition ? { ...q, params, where: q.where ? `${q.where} AND ${condition}` : `WHERE ${condition}` } : q;
}

/**
 * The list query of `filters` and `payload` over the rows the actor may read: what list-search,
 * streaming and the readable WHERE of other read-only queries (aggregates, open data) share.
 */
export function readableListQuery(
  def: EntityDefinition,
  table: EntityTable,
  filters: Record<string, unknown>,
  payload: SearchPayload,
  actor: Actor,
  hidden: readonly string[],
): ListQuery {
  return scopedQuery(def, buildListQuery(def, table, filters, payload, hidden, actor.id, actor.unit ?? null), actor);
}

/**
 * The two statements of one list-search: the page, and the count that stops past the cap
 * (an exact total of a million rows would cost more than the page). Shared with bench:api so
 * the benchmark times exactly what the store runs.
 */
export function listSearchSql(table: EntityTable, q: ListQuery, countCap: number): { page: string; count: string } {
  return {
    page: `SELECT ${RECORD_COLUMNS} FROM ${table.table} ${q.where} ${q.orderBy} LIMIT ${q.limit} OFFSET ${q.offset}`,
    count: `SELECT count(*)::int AS total FROM (SELECT 1 FROM ${table.table} ${q.where} LIMIT ${countCap + 1}) AS matched`,
  };
}

/**
 * One batch of a streamed list: up to `batchSize` rows of `q`'s order after the row whose key
 * values are `after` (none: from the start). Each row also carries its key values as text
 * (`k0`, `k1`…), which {@link keyAfter} reads for the next batch.
 */
export function streamBatchSql(
  table: EntityTable,
  q: ListQuery,
  after: ReadonlyArray<string | null> | undefined,
  batchSize: number,
): { sql: string; params: unknown[] } {
  const params = [...q.params];
  const param = (value: unknown): string => `$${params.push(value)}`;
  const orderBy = `ORDER BY ${q.keys.map((k) => `${k.column} ${k.desc ? 'DESC' : 'ASC'}`).join(', ')}`;
  const keyColumns = q.keys.map((k, i) => `${k.column}::text AS "k${i}"`).join(', ');
  const conditions = [q.where.replace(/^WHERE /, ''), after ? keysetCondition(q.keys, after, param) : ''].filter(
    Boolean,
  );
  return {
    sql: `SELECT ${RECORD_COLUMNS}, ${keyColumns} FROM ${table.table}
             ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ${orderBy} LIMIT ${batchSize}`,
    params,
  };
}

/** The key values of the last row of a batch ({@link streamBatchSql}): where the next one starts. */
export const keyAfter = (q: ListQuery, row: { readonly [key: `k${number}`]: string | null }): Array<string | null> =>
  q.keys.map((_, i) => row[`k${i}`] ?? null);

/**
 * Search-by-keyword: the newest `limit` rows the actor may read whose keyword text contains
 * `keyword`, as id and label (the manifest's `labelField`, unless hidden from the reader: then
 * the id).
 */
export function keywordSearchSql(
  def: EntityDefinition,
  table: EntityTable,
  keyword: string,
  limit: number,
  actor: Actor,
  hidden: readonly string[],
): { sql: string; params: unknown[] } {
  // A hidden label field is not shown as the label either: the id stands in.
  const labelField =
    def.manifest.labelField && !isHiddenField(hidden, def.manifest.labelField) ? def.manifest.labelField : undefined;
  const label = labelField ? sqlText(labelField) : 'id::text';
  const params: unknown[] = [];
  const like = keywordLike(
    keywordColumn(def, table, hidden),
    keyword.trim().toLowerCase(),
    (v) => `$${params.push(v)}`,
  );
  const q = scopedQuery(def, { where: `WHERE ${like}`, params }, actor);
  return {
    sql: `SELECT id, ${label} AS label FROM ${table.table} ${q.where} ORDER BY id DESC LIMIT ${Number(limit)}`,
    params: q.params,
  };
}
