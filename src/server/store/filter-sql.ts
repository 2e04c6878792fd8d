import type { DerivedColumn } from '../db/entity-table.ts';
import { ApiError } from '../errors.ts';
import { INPUT_NUMBER_LIMIT } from '../hostile-input.ts';
import {
  FILTER_KINDS,
  type FilterKind,
  type FilterValues,
  type GridFilter,
  type RawFilterValues,
} from '../../shared/filter-kinds.ts';
import { BUSINESS_TIME_ZONE } from '../../shared/time-zone.ts';
import { fixUzApostrophes } from '../../shared/uz-apostrophes.ts';
import { sqlJson } from '../../shared/pointer.ts';

/**
 * The SQL side of the filter-kind registry (`src/shared/filter-kinds.ts`): for each kind, the
 * conditions of the WHERE clause a given filter adds, with bound parameters. Typed by the
 * kind names, so a kind added to the meta-schema without SQL here does not compile.
 */

/** What a kind's SQL needs from the query being built. */
export interface FilterSqlContext {
  /** The table column of a record pointer (the grid check guarantees filtered fields have one). */
  column(pointer: string): DerivedColumn;
  /** Binds a value and returns its placeholder (`$n`). */
  param(value: unknown): string;
  /** The keyword text expression the reader may search (`list-query.ts` keywordColumn). */
  keywordText(): string;
  /**
   * The signed-in user's id (null for a visitor): what a currentUser filter compares with.
   * Absent where no one user asks (a dashboard's measure, the same for everyone): such a filter then matches nothing.
   */
  actorId?(): string | null;
  /** The viewer's own unit (Actor `unit`); absent or null when there is none (a dashboard's measures). */
  viewerUnit?(): number | null;
}

/** The WHERE conditions of one filter of kind `V`'s value; joined with AND by the caller. */
export type FilterSql<V> = (value: V, filter: GridFilter, ctx: FilterSqlContext) => string[];

/** Escapes LIKE wildcards so typed text matches literally. */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const equals: FilterSql<unknown> = (value, filter, ctx) => [
  `${ctx.column(filter.field!).column} = ${ctx.param(value)}`,
];

/**
 * The keyword condition: the keyword text contains the typed text — or, when it differs, the
 * text with the official Uzbek apostrophes, so a citizen's plain "o'zbek" finds "oʻzbek".
 * @example keywordLike('keywords', "o'zbek", param) // "(keywords LIKE $1 OR keywords LIKE $2)"
 */
export function keywordLike(column: string, text: string, param: (value: unknown) => string): string {
  const variants = [...new Set([text, fixUzApostrophes(text)])];
  const likes = variants.map((v) => `${column} LIKE ${param(`%${escapeLike(v)}%`)}`);
  return likes.length === 1 ? likes[0]! : `(${likes.join(' OR ')})`;
}

/**
 * currentUser: the field (a user id or an array of them) holds the actor's id. jsonb
 * containment covers both shapes (`[3,7] @> 7`, `7 @> 7`); ids stored as text match too.
 * A visitor, or an id that is not a number, has no records here.
 */
const currentUser: FilterSql<true> = (_value, filter, ctx) => {
  const id = ctx.actorId?.() ?? null;
  if (id === null || !/^\d{1,15}$/.test(id)) return ['FALSE'];
  const json = sqlJson(filter.field!);
  return [`(${json} @> to_jsonb(${ctx.param(Number(id))}::bigint) OR ${json} @> to_jsonb(${ctx.param(id)}::text))`];
};

/** Every kind's SQL, one entry each. */
export const FILTER_SQL: { readonly [K in FilterKind]: FilterSql<FilterValues[K]> } = {
  keyword: (text, _filter, ctx) => [keywordLike(ctx.keywordText(), text, ctx.param)],
  eq: equals,
  bool: equals,
  currentUser,
  // The typed column is NULL both for an absent field and for a stored null.
  empty: (_value, filter, ctx) => [`${ctx.column(filter.field!).column} IS NULL`],
  in(items, filter, ctx) {
    const col = ctx.column(filter.field!);
    const numeric = col.type === 'bigint' || col.type === 'numeric';
    if (numeric && items.some((v) => !/^-?\d+(\.\d+)?$/.test(v)))
      throw new ApiError(400, 'errors.badFilter', { params: { name: filter.name } });
    // The input gate sees one string here: each number of the list is held to its limit.
    if (numeric && items.some((v) => Math.abs(Number(v)) > INPUT_NUMBER_LIMIT)) {
      throw new ApiError(400, 'errors.invalidInput', {
        fieldErrors: [
          { pointer: `/${filter.name}`, key: 'hostileInput.numberRange', params: { limit: INPUT_NUMBER_LIMIT } },
        ],
      });
    }
    return [`${col.column} = ANY(${ctx.param(numeric ? items.map(Number) : items)}::${col.type}[])`];
  },
  dateRange({ from, to }, filter, ctx) {
    const col = ctx.column(filter.field!);
    // Day bounds are taken in the business time zone so "today" means today in Tashkent.
    const bound = (d: string, next: boolean) =>
      col.type === 'timestamptz'
        ? `((${ctx.param(d)}::date${next ? ' + 1' : ''})::timestamp AT TIME ZONE '${BUSINESS_TIME_ZONE}')`
        : `(${ctx.param(d)}::date${next ? ' + 1' : ''})`;
    const where: string[] = [];
    if (from) where.push(`${col.column} >= ${bound(from, false)}`);
    if (to) where.push(`${col.column} < ${bound(to, true)}`);
    return where;
  },
  range({ from, to }, filter, ctx) {
    const col = ctx.column(filter.field!).column;
    const where: string[] = [];
    if (from !== undefined) where.push(`${col} >= ${ctx.param(from)}`);
    if (to !== undefined) where.push(`${col} <= ${ctx.param(to)}`);
    return where;
  },
  // A viewer without a unit has no box: nothing matches rather than everything.
  myUnit(_given, filter, ctx) {
    const unit = ctx.viewerUnit?.() ?? null;
    return [unit === null ? 'FALSE' : `${ctx.column(filter.field!).column} = ${ctx.param(unit)}`];
  },
};

/** One kind's parse-then-SQL; generic so the value's type follows the kind. */
function conditionsOfKind<K extends FilterKind>(
  kind: K,
  filter: GridFilter,
  raw: RawFilterValues,
  ctx: FilterSqlContext,
): string[] {
  const value = FILTER_KINDS[kind].parse(raw, filter.name);
  return value === undefined ? [] : FILTER_SQL[kind](value, filter, ctx);
}

/**
 * The WHERE conditions of one grid filter given the raw query values; none when the filter
 * is not given.
 * @example filterConditions({ name: 'price', kind: 'range', field: '/price' }, { priceFrom: 5 }, ctx) // ['price >= $1']
 */
export const filterConditions = (filter: GridFilter, raw: RawFilterValues, ctx: FilterSqlContext): string[] =>
  conditionsOfKind(filter.kind, filter, raw, ctx);
