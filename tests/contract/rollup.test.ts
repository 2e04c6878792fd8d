/**
 * The aggregates' summary tables (src/server/store/rollup.ts) on both backends: for every
 * fixture aggregate and request the summary can answer, the API's answer (read from the
 * summary) equals the same aggregate computed over the entity table — after creates, workflow
 * transitions, updates of grouped fields, moves between months and regions, deletes and
 * concurrent writes; a keyword, a period that is not whole months or a day bucket is answered
 * from the entity table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createDefinitionsFixture, type DefinitionsFixture } from '../support/definitions-fixture.ts';
import { addFixtureDashboards, FIXTURE_AGGREGATES } from '../support/rollup-fixture.ts';
import { appealInput, caseInput } from '../support/public-samples.ts';
import { aggregateQuery } from '../../src/server/store/aggregate.ts';
import { migrateRollups, rollupSql } from '../../src/server/store/rollup.ts';
import { MIGRATION_LOCK } from '../../src/server/db/migrate.ts';
import { systemActor } from '../../src/server/auth/access.ts';

const headers = { 'accept-language': 'en' };

/** Requests a dashboard makes: periods of whole quarters and years, with and without a region. */
const PERIODS = [
  { From: '2025-01-01', To: '2025-12-31' },
  { From: '2026-01-01', To: '2026-12-31' },
  { From: '2025-10-01', To: '2025-12-31' },
  { From: '2026-04-01', To: '2026-06-30' },
];
const PERIOD_FILTER: Record<string, string> = { appeal: 'createdDate', 'compliance-case': 'caseDate' };

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`aggregate summary tables on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let fixture: DefinitionsFixture;

    /** The answer of the API and the same aggregate over the entity table, and whether the summary served it. */
    async function bothWays(entity: string, name: string, query: Record<string, string>, bucket?: string) {
      const def = app.definitions.entities.get(entity)!;
      const table = app.tables.get(entity)!;
      const aggregate = def.manifest.aggregates![name]!;
      const search = new URLSearchParams({ ...query, ...(bucket ? { bucket } : {}) });
      const res = await app.inject({ method: 'GET', url: `/api/${entity}/aggregate/${name}?${search}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      const scoped = app.store.readableWhere(entity, query, systemActor());
      const { sql, params } = aggregateQuery(def, table, aggregate, scoped, bucket);
      const base = (await app.db.query(sql, params)).rows;
      const summarized = rollupSql(app.rollups.get(`${entity}/${name}`), table, sql, query, bucket) !== undefined;
      return { api: res.json().list as unknown[], base, summarized };
    }

    /** Every fixture aggregate, every period, all regions and one: the summary's answers equal the table's. */
    async function expectSameEverywhere(): Promise<number> {
      let checked = 0;
      for (const [entity, aggregates] of Object.entries(FIXTURE_AGGREGATES)) {
        for (const name of Object.keys(aggregates)) {
          for (const p of PERIODS) {
            for (const region of [undefined, '1', '3']) {
              const query = {
                [`${PERIOD_FILTER[entity]}From`]: p.From,
                [`${PERIOD_FILTER[entity]}To`]: p.To,
                ...(region ? { regionId: region } : {}),
              };
              const { api, base, summarized } = await bothWays(entity, name, query);
              expect(api, `${entity}/${name} ${JSON.stringify(query)}`).toEqual(base);
              expect(summarized, `${entity}/${name} is summarized`).toBe(!name.includes('largest'));
              checked++;
            }
          }
        }
      }
      const monthly = await bothWays(
        'appeal',
        'fixture-by-month',
        { createdDateFrom: '2025-01-01', createdDateTo: '2026-12-31' },
        'month',
      );
      expect(monthly.summarized).toBe(true);
      expect(monthly.api).toEqual(monthly.base);
      return checked;
    }

    const setAppeal = (
      id: number,
      changes: { createdAt?: string; regionId?: number; appealTypeId?: number; topicId?: number },
    ) => {
      // The data and its derived columns together, as the store writes them.
      const table = app.tables.get('appeal')!;
      const patch: Record<string, unknown> = Object.fromEntries(
        Object.entries(changes).filter(([k]) => k !== 'createdAt'),
      );
      // A district of the new region (region r's first district is r01), so the record stays valid.
      if (changes.regionId) patch.districtId = changes.regionId * 100 + 1;
      const sets = [
        `data = data || $2::jsonb`,
        ...table.computed.map((c) => `${c.column} = ${c.expr('(data || $2::jsonb)')}`),
      ];
      if (changes.createdAt) sets.push(`created_at = '${changes.createdAt}'::timestamptz`);
      return app.db.query(`UPDATE ${table.table} SET ${sets.join(', ')} WHERE id = $1`, [id, JSON.stringify(patch)]);
    };

    let appeals: Array<{ id: number; version: number }> = [];
    let cases: Array<{ id: number; version: number }> = [];

    beforeAll(async () => {
      fixture = createDefinitionsFixture();
      addFixtureDashboards(fixture);
      ({ app, close } = await startTestApp(backend.name, { root: fixture.root }));
      for (let i = 0; i < 24; i++) {
        const res = await app.inject({ method: 'POST', url: '/api/appeal/create', payload: appealInput(i), headers });
        expect(res.statusCode, res.body).toBe(200);
        appeals.push(res.json());
      }
      for (let i = 0; i < 12; i++) {
        const caseDate = `${2025 + (i % 2)}-${String((i % 12) + 1).padStart(2, '0')}-15`;
        const res = await app.inject({
          method: 'POST',
          url: '/api/compliance-case/create',
          // One case without an amount: a sum over no values is null, not 0.
          payload: caseInput(i, { caseDate, regionId: (i % 3) + 1, ...(i === 4 ? {} : { amount: 1000 * i + 0.5 }) }),
          headers,
        });
        expect(res.statusCode, res.body).toBe(200);
        cases.push(res.json());
      }
      // Spread over two years (a month's first and last moments in Tashkent included) and regions.
      const moments = [
        '2025-01-01T00:30:00+05:00',
        '2025-06-30T23:59:00+05:00',
        '2025-11-15T12:00:00Z',
        '2026-04-01T00:00:00+05:00',
        '2026-06-30T19:30:00Z',
        '2026-12-31T23:00:00+05:00',
      ];
      for (const [i, a] of appeals.entries())
        await setAppeal(a.id, {
          createdAt: moments[i % moments.length]!,
          regionId: (i % 3) + 1,
          appealTypeId: (i % 2) + 1,
        });
    }, 180_000);
    afterAll(async () => {
      await close?.();
      fixture?.remove();
    });

    it('has a summary table for each count, sum and average aggregate and none for a maximum', () => {
      for (const [entity, aggregates] of Object.entries(FIXTURE_AGGREGATES))
        for (const name of Object.keys(aggregates))
          expect(app.rollups.has(`${entity}/${name}`), `${entity}/${name}`).toBe(!name.includes('largest'));
    });

    it('answers what the entity table answers after inserts and updates of dates, regions and grouped fields', async () => {
      expect(await expectSameEverywhere()).toBeGreaterThan(0);
    });

    it('follows workflow transitions, record edits and deletes', async () => {
      for (const a of appeals.slice(0, 8)) {
        const res = await app.inject({
          method: 'POST',
          url: `/api/appeal/transition/${a.id}`,
          payload: { event: 'TAKE_FOR_REVIEW', version: a.version },
          headers,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      for (const c of cases.slice(0, 3)) {
        const got = await app.inject({ method: 'GET', url: `/api/compliance-case/get/${c.id}`, headers });
        const record = got.json();
        const res = await app.inject({
          method: 'PUT',
          url: `/api/compliance-case/update/${c.id}`,
          payload: { ...record, regionId: 5, caseDate: '2026-05-20', amount: 777 },
          headers,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      for (const a of appeals.slice(20, 24)) {
        const got = (await app.inject({ method: 'GET', url: `/api/appeal/get/${a.id}`, headers })).json();
        const res = await app.inject({
          method: 'DELETE',
          url: `/api/appeal/delete/${a.id}?version=${got.version}`,
          headers,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      await expectSameEverywhere();
    });

    it('stays exact under concurrent writes', async () => {
      await Promise.all(
        appeals.slice(0, 20).flatMap((a, i) => [
          setAppeal(a.id, { regionId: ((i * 7) % 3) + 1, appealTypeId: (i % 2) + 1 }),
          setAppeal(a.id, {
            topicId: (i % 5) + 1,
            createdAt: i % 2 ? '2026-02-10T08:00:00Z' : '2025-12-31T20:00:00Z',
          }),
        ]),
      );
      await expectSameEverywhere();
    });

    it('answers from the entity table for a keyword, a period that is not whole months, or a day bucket', async () => {
      const keyword = await bothWays('appeal', 'fixture-by-type', {
        createdDateFrom: '2025-01-01',
        createdDateTo: '2026-12-31',
        keyword: 'narx',
      });
      expect(keyword.summarized).toBe(false);
      expect(keyword.api).toEqual(keyword.base);
      const partial = await bothWays('appeal', 'fixture-by-type', {
        createdDateFrom: '2025-01-01',
        createdDateTo: '2025-06-29',
      });
      expect(partial.summarized).toBe(false);
      expect(partial.api).toEqual(partial.base);
      const days = await bothWays(
        'appeal',
        'fixture-by-month',
        { createdDateFrom: '2025-01-01', createdDateTo: '2026-12-31' },
        'day',
      );
      expect(days.summarized).toBe(false);
      expect(days.api).toEqual(days.base);
    });

    it('counts a moment in the month it falls in Tashkent', async () => {
      const first = appeals[0]!; // created 2025-01-01 00:30 in Tashkent (2024-12-31 in UTC)
      await setAppeal(first.id, { createdAt: '2025-01-01T00:30:00+05:00', regionId: 14 });
      const { api } = await bothWays(
        'appeal',
        'fixture-by-month',
        { createdDateFrom: '2025-01-01', createdDateTo: '2025-01-31', regionId: '14' },
        'month',
      );
      expect(api).toEqual([{ bucket: '2025-01', count: 1 }]);
    });

    it('drops the summary tables and triggers of aggregates that are gone (last: it empties the app)', async () => {
      const names = async () =>
        (
          await app.db.query<{ name: string }>(
            `SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'rollup\\_%'
             UNION ALL SELECT tgname FROM pg_trigger WHERE tgname LIKE 'rollup\\_%'`,
          )
        ).rows.length;
      expect(await names()).toBeGreaterThan(0);
      await migrateRollups(app.db, new Map(), MIGRATION_LOCK);
      expect(await names()).toBe(0);
      const res = await app.inject({ method: 'POST', url: '/api/appeal/create', payload: appealInput(99), headers });
      expect(res.statusCode, res.body).toBe(200);
    });
  });
}
