/**
 * The filter-kind registry: every kind the grid meta-schema names has a descriptor (URL/query
 * names, query schema, parse) and SQL, and each entry keeps the wire contract list-search has
 * always had.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FILTER_KIND_NAMES, FILTER_KINDS } from '../../src/shared/filter-kinds.ts';
import { FILTER_SQL, filterConditions, type FilterSqlContext } from '../../src/server/store/filter-sql.ts';
import { keywordSearchSql } from '../../src/server/store/list-query.ts';
import type { DerivedColumn } from '../../src/server/db/entity-table.ts';

const gridMeta = JSON.parse(readFileSync(new URL('../../schemas/_meta/grid.schema.json', import.meta.url), 'utf8'));
const metaKinds: string[] = gridMeta.properties.filters.items.properties.kind.enum;

/** A context whose columns are typed by name (`…At` timestamptz, `…Count` bigint, else text). */
function context() {
  const params: unknown[] = [];
  const ctx: FilterSqlContext = {
    column: (pointer) => {
      const name = pointer.slice(1);
      const type = name.endsWith('At') ? 'timestamptz' : name.endsWith('Count') ? 'bigint' : 'text';
      return { pointer, column: `"${name}"`, type, expr: () => '' } as DerivedColumn;
    },
    param: (v) => `$${params.push(v)}`,
    keywordText: () => 'keywords',
  };
  return { ctx, params };
}

describe('filter-kind registry', () => {
  it('has a descriptor and SQL for every kind of the grid meta-schema, and nothing else', () => {
    expect([...FILTER_KIND_NAMES].sort()).toEqual([...metaKinds].sort());
    expect(Object.keys(FILTER_SQL).sort()).toEqual([...metaKinds].sort());
  });

  it('names the query parameters of each kind', () => {
    expect(FILTER_KINDS.dateRange.params('created')).toEqual(['created', 'createdFrom', 'createdTo']);
    expect(FILTER_KINDS.range.params('price')).toEqual(['priceFrom', 'priceTo']);
    for (const kind of ['keyword', 'eq', 'in', 'bool'] as const) expect(FILTER_KINDS[kind].params('x')).toEqual(['x']);
  });

  it('parses raw query values into the typed value, undefined when not given', () => {
    expect(FILTER_KINDS.keyword.parse({ q: '  Lamp ' }, 'q')).toBe('lamp');
    expect(FILTER_KINDS.keyword.parse({ q: '  ' }, 'q')).toBeUndefined();
    expect(FILTER_KINDS.in.parse({ ids: '1, 2' }, 'ids')).toEqual(['1', '2']);
    expect(FILTER_KINDS.eq.parse({ s: '' }, 's')).toBeUndefined();
    expect(FILTER_KINDS.dateRange.parse({ d: '2024-03-05' }, 'd')).toEqual({ from: '2024-03-05', to: '2024-03-05' });
    expect(FILTER_KINDS.dateRange.parse({ dTo: '2024-03-05' }, 'd')).toEqual({ to: '2024-03-05' });
    expect(FILTER_KINDS.range.parse({ pFrom: 0 }, 'p')).toEqual({ from: 0 });
    expect(FILTER_KINDS.range.parse({}, 'p')).toBeUndefined();
  });

  it("finds Uzbek Latin texts with the official apostrophes when a plain one is typed (o'zbek → oʻzbek)", () => {
    const { ctx, params } = context();
    expect(filterConditions({ name: 'q', kind: 'keyword' }, { q: "O'zbek ma'lumot" }, ctx)).toEqual([
      '(keywords LIKE $1 OR keywords LIKE $2)',
    ]);
    expect(params).toEqual(["%o'zbek ma'lumot%", '%oʻzbek maʼlumot%']);
    const search = keywordSearchSql(
      { id: 'x', manifest: { keywordFields: ['/name'] } } as never,
      { table: 'x', keywordExpr: undefined } as never,
      "g'alaba",
      5,
      { scope: 'ALL' } as never,
      [],
    );
    expect(search.sql).toContain('(keywords LIKE $1 OR keywords LIKE $2)');
    expect(search.params.slice(0, 2)).toEqual(["%g'alaba%", '%gʻalaba%']);
  });

  it('builds the same WHERE conditions as before the registry', () => {
    const { ctx, params } = context();
    expect(filterConditions({ name: 'q', kind: 'keyword' }, { q: '50%_off' }, ctx)).toEqual(['keywords LIKE $1']);
    expect(params[0]).toBe('%50\\%\\_off%');
    expect(
      filterConditions(
        { name: 'd', kind: 'dateRange', field: '/createdAt' },
        { dFrom: '2024-01-01', dTo: '2024-01-31' },
        ctx,
      ),
    ).toEqual([
      `"createdAt" >= (($2::date)::timestamp AT TIME ZONE 'Asia/Tashkent')`,
      `"createdAt" < (($3::date + 1)::timestamp AT TIME ZONE 'Asia/Tashkent')`,
    ]);
    expect(filterConditions({ name: 'n', kind: 'in', field: '/itemCount' }, { n: '1,2' }, ctx)).toEqual([
      '"itemCount" = ANY($4::bigint[])',
    ]);
    expect(params[3]).toEqual([1, 2]);
    expect(filterConditions({ name: 'p', kind: 'range', field: '/price' }, { pTo: 9 }, ctx)).toEqual(['"price" <= $5']);
    expect(filterConditions({ name: 'b', kind: 'bool', field: '/flag' }, { b: true }, ctx)).toEqual(['"flag" = $6']);
    expect(filterConditions({ name: 'e', kind: 'eq', field: '/flag' }, {}, ctx)).toEqual([]);
  });

  it('gives each kind the query schema list-search has always had', () => {
    const scalar = { type: 'integer' } as const;
    expect(FILTER_KINDS.eq.querySchema('a', scalar)).toEqual({ a: scalar });
    expect(FILTER_KINDS.in.querySchema('a', scalar)).toEqual({
      a: { type: 'string', maxLength: 2000, pattern: '^[^,]+(,[^,]+)*$' },
    });
    expect(Object.keys(FILTER_KINDS.dateRange.querySchema('a', scalar))).toEqual(['a', 'aFrom', 'aTo']);
    expect(FILTER_KINDS.range.querySchema('a', scalar)).toEqual({ aFrom: { type: 'number' }, aTo: { type: 'number' } });
    expect(FILTER_KINDS.keyword.querySchema('a', scalar)).toEqual({ a: { type: 'string', maxLength: 200 } });
  });
});
