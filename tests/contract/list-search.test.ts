/**
 * list-search against an in-test computation, for every entity and on both backends: 500
 * generated rows, every sortable column both ways, a multi-sort, paging, and every filter
 * the grid declares.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry, type EntityDefinition } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import { BUSINESS_TIME_ZONE } from '../../src/shared/time-zone.ts';
import { backends } from '../support/databases.ts';
import { startTestApp, storeRecords } from '../support/app.ts';
import { createRng, createSampler } from '../support/sample-data.ts';
import { at, expectedOrder } from '../support/records.ts';
import { systemActor } from '../../src/server/auth/access.ts';
import { cellName, forSelectedEntity } from '../support/test-selection.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ROWS = 500;
const PAGE = 20;
type Row = Record<string, unknown> & { id: number };

const tashkentDate = (iso: string): string =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: BUSINESS_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(iso));

function expectedFilter(
  def: EntityDefinition,
  rows: Row[],
  rng: () => number,
): Array<{ query: Record<string, string>; rows: Row[] }> {
  const cases: Array<{ query: Record<string, string>; rows: Row[] }> = [];
  const valuesOf = (field: string) => rows.map((r) => at(r, field)).filter((v) => v !== undefined && v !== null);
  const pickOne = <T>(list: T[]): T => list[Math.floor(rng() * list.length)]!;
  for (const f of def.grid.filters) {
    if (f.kind === 'keyword') {
      const fields = def.manifest.keywordFields ?? [];
      const text = (r: Row) =>
        fields
          .map((p) => at(r, p))
          .filter((v) => v !== undefined && v !== null)
          .join(' ')
          .toLowerCase();
      // The server trims the keyword, so the needle is taken from inside one word.
      const words = rows
        .map(text)
        .flatMap((t) => t.split(/\s+/))
        .filter((w) => w.length >= 3);
      const word = pickOne(words);
      const start = Math.floor(rng() * (word.length - 2));
      const needle = word.slice(start, start + 3);
      cases.push({ query: { [f.name]: needle.toUpperCase() }, rows: rows.filter((r) => text(r).includes(needle)) });
      continue;
    }
    const values = valuesOf(f.field!);
    if (!values.length) continue;
    if (f.kind === 'eq' || f.kind === 'bool') {
      const v = pickOne(values);
      cases.push({ query: { [f.name]: String(v) }, rows: rows.filter((r) => at(r, f.field!) === v) });
    } else if (f.kind === 'in') {
      const chosen = [...new Set([pickOne(values), pickOne(values), pickOne(values)])];
      cases.push({
        query: { [f.name]: chosen.join(',') },
        rows: rows.filter((r) => chosen.includes(at(r, f.field!) as never)),
      });
    } else if (f.kind === 'dateRange') {
      const day = (v: unknown) => (String(v).length > 10 ? tashkentDate(String(v)) : String(v));
      const days = [...new Set(values.map(day))].sort();
      const from = days[Math.floor(days.length / 4)]!;
      const to = days[Math.floor((days.length * 3) / 4)]!;
      const inRange = (r: Row) => {
        const v = at(r, f.field!);
        return v != null && day(v) >= from && day(v) <= to;
      };
      cases.push({ query: { [`${f.name}From`]: from, [`${f.name}To`]: to }, rows: rows.filter(inRange) });
      cases.push({
        query: { [f.name]: from },
        rows: rows.filter((r) => {
          const v = at(r, f.field!);
          return v != null && day(v) === from;
        }),
      });
      cases.push({ query: { [`${f.name}To`]: '1999-12-31' }, rows: [] });
    } else if (f.kind === 'myUnit') {
      // The searching user has no staff card, so no unit: their box is empty, not everything.
      cases.push({ query: { [f.name]: 'true' }, rows: [] });
    } else if (f.kind === 'range') {
      const sorted = (values as number[]).sort((a, b) => a - b);
      const lo = sorted[Math.floor(sorted.length / 3)]!;
      const hi = sorted[Math.floor((sorted.length * 2) / 3)]!;
      cases.push({
        query: { [`${f.name}From`]: String(lo), [`${f.name}To`]: String(hi) },
        rows: rows.filter((r) => {
          const v = at(r, f.field!) as number;
          return v != null && v >= lo && v <= hi;
        }),
      });
    }
  }
  return cases;
}

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`list-search on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      // One session serves every entity's test: on a loaded machine the file outlasts a default token.
      ({ app, close } = await startTestApp(backend.name, { accessTokenSeconds: 3600 }));
    });
    afterAll(async () => close?.());

    const search = async (base: string, query: Record<string, string>, body: Record<string, unknown>) => {
      const res = await app.inject({
        method: 'POST',
        url: `${base}/list-search?${new URLSearchParams(query)}`,
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { list: Row[]; total: number };
    };

    for (const def of forSelectedEntity(registry.entities.values(), (d) => d.id)) {
      it(`${def.id}: ${ROWS} rows — paging, every sort and every filter match the computation`, async () => {
        const base = `/api${def.manifest.base}`;
        // Rows already there (the seeded roles, the admin) are part of what the list must show.
        const sample = createSampler(def.schema, registry.references, createServerAjv());
        const rows: Row[] = [];
        for await (const record of app.store.streamList(def.id, {}, {}, systemActor())) rows.push(record as Row);
        const existing = rows.length;
        rows.push(
          ...((await storeRecords(
            app,
            def.id,
            ROWS,
            (seed) => sample(seed, { full: (seed - 1000) % 3 !== 0 }),
            1000,
          )) as Row[]),
        );

        // Default order and paging.
        const defaultSort = def.grid.defaultSort.map((s) => ({ field: s.field, desc: s.desc === true }));
        const ordered = expectedOrder(rows, defaultSort);
        const first = await search(base, {}, {});
        expect(first.total, cellName(def.id, 'total')).toBe(existing + ROWS);
        expect(
          first.list.map((r) => r.id),
          cellName(def.id, 'page 1, default sort'),
        ).toEqual(ordered.slice(0, PAGE).map((r) => r.id));
        const third = await search(base, {}, { page: 2, itemsPerPage: 30 });
        expect(
          third.list.map((r) => r.id),
          cellName(def.id, 'page 3 of 30, default sort'),
        ).toEqual(ordered.slice(60, 90).map((r) => r.id));
        expect(
          (await search(base, {}, { page: 100, itemsPerPage: 50 })).list,
          cellName(def.id, 'a page past the end'),
        ).toEqual([]);

        // Every sortable column, both ways, on the first and a later page.
        const sortable = def.grid.columns.filter((c) => c.sortable).map((c) => c.field);
        for (const field of sortable) {
          const name = field.slice(1).split('/').join('.');
          for (const desc of [false, true]) {
            const expected = expectedOrder(rows, [{ field, desc }]);
            const got = await search(base, {}, { sortBy: [name], sortDesc: [desc], page: 1, itemsPerPage: PAGE });
            expect(
              got.list.map((r) => r.id),
              cellName(def.id, 'sort', `${field} ${desc ? 'desc' : 'asc'}`),
            ).toEqual(expected.slice(PAGE, 2 * PAGE).map((r) => r.id));
          }
        }
        if (sortable.length >= 2) {
          const sort = [
            { field: sortable[1]!, desc: true },
            { field: sortable[0]!, desc: false },
          ];
          const got = await search(
            base,
            {},
            { sortBy: sort.map((s) => s.field), sortDesc: sort.map((s) => s.desc), multiSort: true, itemsPerPage: 50 },
          );
          expect(
            got.list.map((r) => r.id),
            cellName(def.id, 'multi-sort', sort.map((x) => `${x.field} ${x.desc ? 'desc' : 'asc'}`).join(', ')),
          ).toEqual(
            expectedOrder(rows, sort)
              .slice(0, 50)
              .map((r) => r.id),
          );
        }

        // groupBy sorts by the group first, then by sortBy.
        if (sortable.length >= 2) {
          const group = { field: sortable[1]!, desc: false };
          const by = { field: sortable[0]!, desc: true };
          const got = await search(
            base,
            {},
            { groupBy: [group.field], groupDesc: [false], sortBy: [by.field], sortDesc: [true], itemsPerPage: 50 },
          );
          expect(
            got.list.map((r) => r.id),
            cellName(def.id, 'group by', group.field, `then ${by.field} desc`),
          ).toEqual(
            expectedOrder(rows, [group, by])
              .slice(0, 50)
              .map((r) => r.id),
          );
        }

        // Every declared filter.
        for (const c of expectedFilter(def, rows, createRng(99))) {
          const got = await search(base, c.query, { itemsPerPage: PAGE });
          expect(got.total, cellName(def.id, 'filter', JSON.stringify(c.query))).toBe(c.rows.length);
          expect(
            got.list.map((r) => r.id),
            cellName(def.id, 'filter', JSON.stringify(c.query)),
          ).toEqual(
            expectedOrder(c.rows, defaultSort)
              .slice(0, PAGE)
              .map((r) => r.id),
          );
        }
      });
    }

    it('refuses sorting by a column the grid does not declare sortable, and unknown filters', async () => {
      const def = [...registry.entities.values()][0]!;
      const base = `/api${def.manifest.base}`;
      const badSort = await app.inject({
        method: 'POST',
        url: `${base}/list-search`,
        payload: { sortBy: ['data'] },
        headers: { 'accept-language': 'en' },
      });
      expect(badSort.statusCode).toBe(400);
      expect(badSort.json().message).toBe('The list cannot be sorted by “data”');
      const badFilter = await app.inject({ method: 'POST', url: `${base}/list-search?nope=1`, payload: {} });
      expect(badFilter.statusCode).toBe(400);
      expect(Object.keys(badFilter.json().fieldErrors)).toEqual(['/nope']);
      const badPage = await app.inject({
        method: 'POST',
        url: `${base}/list-search`,
        payload: { page: -1, itemsPerPage: 1000 },
      });
      expect(badPage.statusCode).toBe(400);
      expect(Object.keys(badPage.json().fieldErrors).sort()).toEqual(['/itemsPerPage', '/page']);
    });
  });
}
