import type { EntityDefinition } from '../../definitions/registry.ts';
import type { EntityTable } from '../db/entity-table.ts';
import type { Aggregate as EntityAggregate } from '../../generated/meta.ts';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { pointerSegments, sqlText } from '../../shared/pointer.ts';
import { ApiError } from '../errors.ts';
import { BUSINESS_TIME_ZONE } from '../../shared/time-zone.ts';

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
 * The SELECT of one declared aggregate over the rows `where` leaves (list-search's filters
 * and the reader's scope): group fields, an optional date bucket, the measures. Numbers come
 * back as numbers (averages rounded to 2 decimals), groups ordered by their values.
 * @example aggregateSql(def, table, def.manifest.aggregates['by-fuel'], 'WHERE …', 'month')
 */
export function aggregateSql(
  def: EntityDefinition,
  table: EntityTable,
  aggregate: EntityAggregate,
  where: string,
  bucket: string | undefined,
): string {
  const groups = (aggregate.groupBy ?? []).map((p) => ({ expr: fieldExpression(def, table, p), name: answerName(p) }));
  if (aggregate.dateBucket) {
    const unit = (bucket ?? aggregate.dateBucket.units[0]) as BucketUnit;
    if (!aggregate.dateBucket.units.includes(unit))
      throw new ApiError(400, 'errors.badFilter', { params: { name: 'bucket' } });
    const date = fieldExpression(def, table, aggregate.dateBucket.field);
    // A moment's day is Tashkent's, not the database session's (UTC): 00:30 on 1 July is July.
    const day =
      table.columns.get(aggregate.dateBucket.field)?.type === 'timestamptz'
        ? `(${date} AT TIME ZONE '${BUSINESS_TIME_ZONE}')::date`
        : `(${date})::date`;
    groups.unshift({ expr: `to_char(${day}, '${BUCKET_FORMAT[unit]}')`, name: 'bucket' });
  } else if (bucket !== undefined) {
    throw new ApiError(400, 'errors.badFilter', { params: { name: 'bucket' } });
  }
  const measures = aggregate.measures.map((m) => {
    if (m.fn === 'count') return `count(*)::int AS "${m.name}"`;
    const value = fieldExpression(def, table, m.field!);
    // numeric → float8 so that the driver hands back a JS number, not a string.
    return m.fn === 'avg'
      ? `round(avg(${value}), 2)::float8 AS "${m.name}"`
      : `${m.fn}(${value})::float8 AS "${m.name}"`;
  });
  const selected = [...groups.map((g) => `${g.expr} AS "${g.name}"`), ...measures];
  const groupBy = groups.length
    ? `GROUP BY ${groups.map((_, i) => i + 1).join(', ')} ORDER BY ${groups.map((_, i) => i + 1).join(', ')}`
    : '';
  return `SELECT ${selected.join(', ')} FROM ${table.table} ${where} ${groupBy} LIMIT ${aggregate.limit ?? DEFAULT_AGGREGATE_LIMIT}`;
}
