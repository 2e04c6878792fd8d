import type { ValidateFunction } from 'ajv';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { Aggregate } from '../../generated/meta.ts';
import { closestName } from '../../definitions/check/suggest.ts';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { FILTER_KINDS, filterParamNames, type GridFilter } from '../../shared/filter-kinds.ts';
import type { EntityTable } from '../db/entity-table.ts';
import { createServerAjv } from '../validation.ts';
import { filterConditions, type FilterSqlContext } from './filter-sql.ts';
import { filterQuerySchema, keywordColumn } from './list-query.ts';

/**
 * An aggregate measure's own `filter` (`{"statusId": "EXPLAINED"}`): the grid filters of the
 * entity with query-string values, as list-search takes them. They are parsed exactly as a
 * list-search query string is (the same query schema, the same kinds) and compiled with the
 * same filter SQL into the measure's `FILTER (WHERE …)`, so a dashboard's number and the list
 * its drill-down opens (the same pairs in the list's URL) count the same rows.
 */

/** A measure's filter as the manifest declares it. */
export type MeasureFilter = NonNullable<Aggregate['measures'][number]['filter']>;

/** The parts of an entity a measure filter is read against. */
export type FilterOwner = Pick<EntityDefinition, 'grid' | 'schema'>;

/** A measure filter understood: typed query values, and the grid filters they set. */
export interface ParsedMeasureFilter {
  /** Query values typed as list-search's query schema types them. */
  values: Record<string, unknown>;
  /** The grid filters the values set, in the grid's order. */
  filters: GridFilter[];
}

/** One thing wrong with a measure filter: the key (query parameter) and what. */
export interface MeasureFilterProblem {
  key: string;
  message: string;
}

/**
 * The query-string values of a measure filter: arrays joined with commas (an `in` list),
 * numbers and booleans as text — what a browser would send to list-search.
 * @example measureFilterQuery({ statuses: ['SEEN', 'REVIEWED'], regionId: 3 }) // { statuses: 'SEEN,REVIEWED', regionId: '3' }
 */
export function measureFilterQuery(filter: MeasureFilter): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filter).map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : String(value)]),
  );
}

const queryAjv = createServerAjv({ coerceTypes: true });
const validators = new WeakMap<object, ValidateFunction>();

/** list-search's query schema of the entity, compiled once per grid. */
function queryValidator(def: FilterOwner): ValidateFunction {
  let validate = validators.get(def.grid);
  if (!validate) {
    validate = queryAjv.compile(filterQuerySchema(def));
    validators.set(def.grid, validate);
  }
  return validate;
}

/** Whether an `in` filter's field holds numbers (its items must then be numbers too). */
const numericField = (def: FilterOwner, filter: GridFilter): boolean => {
  const field = filter.field ? resolveFieldSchema(def.schema, filter.field) : undefined;
  const type = field ? scalarType(field) : undefined;
  return type === 'integer' || type === 'number';
};

/**
 * Reads a measure filter against the entity's grid filters: every key must be a query
 * parameter of one of them, every value must pass list-search's query schema and parse with
 * the filter's kind. Answers the typed values, or the problems in plain words (for
 * `npm run check`; the server refuses to start with them).
 * @example parseMeasureFilter(def, { statusId: 'EXPLAINED' }) // { values: { statusId: 'EXPLAINED' }, filters: [statusFilter] }
 */
export function parseMeasureFilter(
  def: FilterOwner,
  filter: MeasureFilter,
): { parsed: ParsedMeasureFilter; problems: MeasureFilterProblem[] } {
  const problems: MeasureFilterProblem[] = [];
  const raw = measureFilterQuery(filter);
  const owners = new Map<string, GridFilter>();
  for (const f of def.grid.filters) for (const name of filterParamNames(f)) owners.set(name, f);
  for (const key of Object.keys(raw)) {
    if (owners.has(key)) continue;
    const near = closestName(key, owners.keys());
    const known = [...owners.keys()].sort().join(', ');
    problems.push({
      key,
      message: `"${key}" is not a filter of this entity's list${near ? `; did you mean "${near}"?` : ''} Filters: ${known}`,
    });
  }
  const values: Record<string, unknown> = { ...raw };
  const validate = queryValidator(def);
  if (!validate(values)) {
    for (const e of validate.errors ?? []) {
      const key = e.instancePath.replace(/^\//, '');
      if (!key || !owners.has(key)) continue;
      problems.push({ key, message: `value "${raw[key]}" of "${key}" ${e.message ?? 'is not valid'}` });
    }
  }
  const filters = def.grid.filters.filter((f) => filterParamNames(f).some((name) => name in raw));
  for (const f of filters) {
    const key = filterParamNames(f).find((name) => name in raw)!;
    const value = FILTER_KINDS[f.kind].parse(values, f.name);
    if (value === undefined) problems.push({ key, message: `"${key}" has no value: it would filter nothing` });
    else if (f.kind === 'in' && numericField(def, f) && (value as string[]).some((v) => !/^-?\d+(\.\d+)?$/.test(v)))
      problems.push({ key, message: `"${key}" lists numbers: "${raw[key]}" is not a comma list of numbers` });
  }
  return { parsed: { values, filters }, problems };
}

/**
 * The condition of a parsed measure filter, its values bound through `param` — to go into
 * `FILTER (WHERE …)`. `hidden` are the reader's hidden fields (a keyword filter then searches
 * the other keyword fields, as list-search does).
 * @example measureFilterCondition(def, table, parsed, param, []) // "status = $3"
 */
export function measureFilterCondition(
  def: EntityDefinition,
  table: EntityTable,
  parsed: ParsedMeasureFilter,
  param: (value: unknown) => string,
  hidden: readonly string[],
): string {
  const ctx: FilterSqlContext = {
    column: (pointer) => table.columns.get(pointer)!,
    param,
    keywordText: () => keywordColumn(def, table, hidden),
  };
  const conditions = parsed.filters.flatMap((f) => filterConditions(f, parsed.values, ctx));
  return conditions.length ? conditions.join(' AND ') : 'TRUE';
}
