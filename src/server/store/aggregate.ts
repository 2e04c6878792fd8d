import type { EntityDefinition } from '../../definitions/registry.ts';
import type { EntityTable } from '../db/entity-table.ts';
import type { Aggregate as EntityAggregate } from '../../generated/meta.ts';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { pointerSegments, sqlText } from '../../shared/pointer.ts';
import { BUSINESS_TIME_ZONE } from '../../shared/time-zone.ts';
import { ApiError } from '../errors.ts';
import { measureFilterCondition, parseMeasureFilter, type MeasureFilter } from './measure-filter.ts';

/** Rows an aggregate answers unless it declares its own `limit`. */
export const DEFAULT_AGGREGATE_LIMIT = 1000;

const BUCKET_FORMAT = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY' } as const;
export type BucketUnit = keyof typeof BUCKET_FORMAT;

/** The name a field has in an aggregate's answer: its last pointer segment. */
export const answerName = (pointer: string): string => pointerSegments(pointer).at(-1)!;

/**
 * A typed SQL expression of a record field: the derived column where the table has one
 * (indexed), else the value read from `data` and cast by the field's schema type.
 */
export function fieldExpression(def: EntityDefinition, table: EntityTable, pointer: string): string {
  const column = table.columns.get(pointer);
  if (column) return column.column;
  const text = sqlText(pointer);
  const schema = resolveFieldSchema(def.schema, pointer);
  const type = schema ? scalarType(schema) : undefined;
  if (type === 'integer') return `NULLIF(${text}, '')::bigint`;
  if (type === 'number') return `NULLIF(${text}, '')::numeric`;
  if (schema?.format === 'date') return `NULLIF(${text}, '')::date`;
  return text;
}

/**
 * The SELECT of one declared aggregate over the rows `scoped` leaves (list-search's filters
 * and the reader's scope, with their bound parameters): group fields, an optional date
 * bucket, the measures — each narrowed by its own `filter` (`count(*) FILTER (WHERE …)`, the
 * list-search filter SQL, its values bound after the scope's). Numbers come back as numbers
 * (averages rounded to 2 decimals), groups ordered by their values; with no groups, one row.
 * `hidden` are the reader's hidden fields (a keyword filter then searches the others).
 * @example aggregateQuery(def, table, def.manifest.aggregates['by-fuel'], { where: 'WHERE …', params }, 'month')
 */
export function aggregateQuery(
  def: EntityDefinition,
  table: EntityTable,
  aggregate: EntityAggregate,
  scoped: { where: string; params: readonly unknown[] },
  bucket: string | undefined,
  hidden: readonly string[] = [],
): { sql: string; params: unknown[] } {
  const params = [...scoped.params];
  const param = (value: unknown): string => `$${params.push(value)}`;
  const groups = (aggregate.groupBy ?? []).map((p) => ({ expr: fieldExpression(def, table, p), name: answerName(p) }));
  if (aggregate.dateBucket) {
    const unit = (bucket ?? aggregate.dateBucket.units[0]) as BucketUnit;
    if (!aggregate.dateBucket.units.includes(unit))
      throw new ApiError(400, 'errors.badFilter', { params: { name: 'bucket' } });
    const date = fieldExpression(def, table, aggregate.dateBucket.field);
    // A moment (created at…) falls on the day it is in Tashkent, as the list's date filters count it.
    const day =
      table.columns.get(aggregate.dateBucket.field)?.type === 'timestamptz'
        ? `(${date} AT TIME ZONE '${BUSINESS_TIME_ZONE}')::date`
        : `(${date})::date`;
    groups.unshift({ expr: `to_char(${day}, '${BUCKET_FORMAT[unit]}')`, name: 'bucket' });
  } else if (bucket !== undefined) {
    throw new ApiError(400, 'errors.badFilter', { params: { name: 'bucket' } });
  }
  const measures = aggregate.measures.map((m) => {
    const only = m.filter ? ` FILTER (WHERE ${measureCondition(def, table, m.filter, param, hidden)})` : '';
    if (m.fn === 'count') return `count(*)${only}::int AS "${m.name}"`;
    const value = fieldExpression(def, table, m.field!);
    if (m.fn === 'countDistinct') return `count(DISTINCT ${value})${only}::int AS "${m.name}"`;
    // numeric → float8 so that the driver hands back a JS number, not a string.
    return m.fn === 'avg'
      ? `round(avg(${value})${only}, 2)::float8 AS "${m.name}"`
      : `${m.fn}(${value})${only}::float8 AS "${m.name}"`;
  });
  const selected = [...groups.map((g) => `${g.expr} AS "${g.name}"`), ...measures];
  const groupBy = groups.length
    ? `GROUP BY ${groups.map((_, i) => i + 1).join(', ')} ORDER BY ${groups.map((_, i) => i + 1).join(', ')}`
    : '';
  return {
    sql: `SELECT ${selected.join(', ')} FROM ${table.table} ${scoped.where} ${groupBy} LIMIT ${aggregate.limit ?? DEFAULT_AGGREGATE_LIMIT}`,
    params,
  };
}

/** A measure filter's condition; the definitions were checked at start-up, so a problem here is a bug. */
function measureCondition(
  def: EntityDefinition,
  table: EntityTable,
  filter: MeasureFilter,
  param: (value: unknown) => string,
  hidden: readonly string[],
): string {
  const { parsed, problems } = parseMeasureFilter(def, filter);
  if (problems.length) throw new Error(`measure filter of ${def.id}: ${problems.map((p) => p.message).join('; ')}`);
  return measureFilterCondition(def, table, parsed, param, hidden);
}
