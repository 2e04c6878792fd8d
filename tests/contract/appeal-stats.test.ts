/**
 * Appeals statistics on both backends (issue #18 item 2): generated appeals with known
 * types, topics, regions, channels, statuses and days are counted here independently, and
 * every aggregate the appeal-stats-* dashboards read must answer the same numbers; a sample of
 * numbers is followed the way a click follows it (`drillQuery` of the screen's panel) and the
 * appeal list's total must equal it; a regional department employee gets only their region,
 * the chair all; the public submit sets the channel by itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { systemActor } from '../../src/server/auth/access.ts';
import { drillQuery, effectiveValues } from '../../src/shared/dashboard-query.ts';
import type { DashboardOptions, DashboardPanel } from '../../src/generated/meta.ts';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp } from '../support/app.ts';
import { appealInput, submission } from '../support/public-samples.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const json = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
const manifest = json('schemas/appeal/entity.json') as {
  aggregates: Record<string, { measures: Array<{ name: string; filter?: Record<string, string | string[]> }> }>;
};
const grid = json('schemas/appeal/grid.json') as { filters: Array<{ name: string; kind: string }> };
/** The names list-search takes: a date range as `<name>From`/`<name>To`. */
const LIST_FILTERS = new Set(
  grid.filters.flatMap((f) =>
    f.kind === 'dateRange' || f.kind === 'range' ? [`${f.name}From`, `${f.name}To`] : [f.name],
  ),
);

const STATUSES = [
  'CREATED',
  'UNDER_REVIEW',
  'SEEN',
  'BEING_REVIEWED',
  'OVERDUE',
  'MEASURES_TAKEN',
  'EXPLAINED',
  'REJECTED',
  'REPEATED',
  'RETURNED',
] as const;
/** Each outcome measure and the statuses it counts — written here, not read from the manifest. */
const MEASURES: Record<string, readonly string[]> = {
  received: ['CREATED'],
  underReview: ['UNDER_REVIEW', 'SEEN'],
  beingReviewed: ['BEING_REVIEWED'],
  overdue: ['OVERDUE'],
  measuresTaken: ['MEASURES_TAKEN'],
  explained: ['EXPLAINED'],
  rejected: ['REJECTED'],
  repeated: ['REPEATED'],
  returned: ['RETURNED'],
};
const REGIONS = [3, 7, 12];
const EMPLOYEE_REGION = 3;
const COUNT = 96;
const PASSWORD = 'stats-pass-1';
const Q3 = { createdDateFrom: '2025-07-01', createdDateTo: '2025-09-30' };

interface Generated {
  appealTypeId: number;
  topicId: number;
  regionId: number;
  channelId: number;
  status: string;
  createdAt: Date;
  /** The day in Tashkent (UTC+5), as the period filter and the date bucket count it. */
  day: string;
}

/** The i-th appeal: values cycle with different periods so that the groups mix. */
function generated(i: number): Generated {
  // From 2025-06-20 on, about one appeal a day; some late in the UTC evening, which is already
  // the next day in Tashkent (the 30 June → 1 July one crosses the quarter).
  const createdAt = new Date(Date.UTC(2025, 5, 20) + i * 26 * 3600_000 + (i % 4 === 0 ? 20 : 9) * 3600_000);
  return {
    appealTypeId: 1 + (Math.floor(i / 3) % 2),
    topicId: 1 + ((i * 7) % 5),
    regionId: REGIONS[i % 3]!,
    channelId: 1 + ((i * 5) % 8),
    status: STATUSES[(i * 3 + Math.floor(i / 10)) % 10]!,
    createdAt,
    day: new Date(createdAt.getTime() + 5 * 3600_000).toISOString().slice(0, 10),
  };
}

type Row = Record<string, number | string | null>;

/** The expected rows of an outcome aggregate grouped by `key` (none: one row). */
function expectedRows(records: Generated[], key?: keyof Generated): Row[] {
  const groups = new Map<string, Generated[]>();
  for (const r of records) {
    const k = key ? String(r[key]) : '';
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  if (!key && !groups.size) groups.set('', []);
  return [...groups.entries()]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([k, rs]) => ({
      ...(key ? { [key]: Number(k) } : {}),
      total: rs.length,
      ...Object.fromEntries(
        Object.entries(MEASURES).map(([m, st]) => [m, rs.filter((r) => st.includes(r.status)).length]),
      ),
    }));
}

const inQ3 = (r: Generated) => r.day >= Q3.createdDateFrom && r.day <= Q3.createdDateTo;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`appeals statistics on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    const records: Generated[] = [];
    const tokens: Record<string, string> = {};
    const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}`, 'accept-language': 'en' });
    const aggregate = async (name: string, query: Record<string, string>, who = 'chair'): Promise<Row[]> => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/appeal/aggregate/${name}?${new URLSearchParams(query)}`,
        headers: as(who),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().list;
    };
    const listTotal = async (query: URLSearchParams, who = 'chair'): Promise<number> => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/appeal/list-search?${query}`,
        headers: as(who),
        payload: { page: 0, itemsPerPage: 1 },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().total;
    };

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      for (const [username, roles, regionId] of [
        ['stats-chair', ['chair'], 15],
        ['stats-employee', ['employee'], EMPLOYEE_REGION],
      ] as const) {
        const created = await app.inject({
          method: 'POST',
          url: '/api/portal-user/create',
          payload: { username, firstName: 'Test', lastName: username, isOuter: false, canLogin: true, roles, regionId },
        });
        expect(created.statusCode, created.body).toBe(200);
        const pass = await app.inject({
          method: 'POST',
          url: '/api/auth/set-password',
          payload: { userId: created.json().id, password: PASSWORD },
        });
        expect(pass.statusCode).toBe(200);
      }
      tokens.chair = (await signIn(app, 'stats-chair', PASSWORD)).token;
      tokens.employee = (await signIn(app, 'stats-employee', PASSWORD)).token;
      const table = app.tables.get('appeal')!.table;
      for (let i = 0; i < COUNT; i++) {
        const g = generated(i);
        const record = await app.store.create(
          'appeal',
          appealInput(i, {
            appealTypeId: g.appealTypeId,
            topicId: g.topicId,
            regionId: g.regionId,
            districtId: g.regionId * 100 + 1,
            channelId: g.channelId,
          }),
          systemActor(),
        );
        await app.db.query(`UPDATE ${table} SET status = $1, created_at = $2 WHERE id = $3`, [
          g.status,
          g.createdAt.toISOString(),
          record.id,
        ]);
        records.push(g);
      }
    }, 180_000);
    afterAll(async () => close?.());

    it('the generated appeals span both quarters and every status, channel and region', () => {
      expect(records.some((r) => r.day < Q3.createdDateFrom)).toBe(true);
      expect(records.some((r) => r.day > Q3.createdDateTo)).toBe(true);
      expect(new Set(records.filter(inQ3).map((r) => r.status)).size).toBe(10);
      expect(new Set(records.filter(inQ3).map((r) => r.channelId)).size).toBe(8);
    });

    it('every outcome aggregate equals the counts made here, and the outcome columns add up to the total', async () => {
      const q3 = records.filter(inQ3);
      const cases: Array<[string, keyof Generated | undefined]> = [
        ['by-type', 'appealTypeId'],
        ['by-topic', 'topicId'],
        ['by-region', 'regionId'],
        ['by-channel', 'channelId'],
        ['outcomes', undefined],
      ];
      for (const [name, key] of cases) {
        const rows = await aggregate(name, Q3);
        expect(rows, name).toEqual(expectedRows(q3, key));
        for (const row of rows)
          expect(
            Object.keys(MEASURES).reduce((sum, m) => sum + Number(row[m]), 0),
            name,
          ).toBe(row.total);
      }
      // Without a period: every record.
      expect(await aggregate('outcomes', {})).toEqual(expectedRows(records));
    });

    it('the intake counts appeals per Tashkent day and month and channel', async () => {
      const q3 = records.filter(inQ3);
      const expected = (cut: (r: Generated) => string) => {
        const counts = new Map<string, number>();
        for (const r of q3) counts.set(`${cut(r)}|${r.channelId}`, (counts.get(`${cut(r)}|${r.channelId}`) ?? 0) + 1);
        return [...counts.entries()]
          .map(([k, total]) => ({ bucket: k.split('|')[0]!, channelId: Number(k.split('|')[1]), total }))
          .sort((a, b) => a.bucket.localeCompare(b.bucket) || a.channelId - b.channelId);
      };
      expect(await aggregate('intake', { ...Q3, bucket: 'day' })).toEqual(expected((r) => r.day));
      expect(await aggregate('intake', { ...Q3, bucket: 'month' })).toEqual(expected((r) => r.day.slice(0, 7)));
    });

    it('a number clicked on a dashboard opens the appeal list whose total equals it', async () => {
      let checked = 0;
      for (const screenId of ['appeal-stats-general', 'appeal-stats-quarter', 'appeal-stats-enter']) {
        const options = json(`screens/${screenId}.json`).options as DashboardOptions;
        for (const regionId of ['', String(REGIONS[1])]) {
          const values = effectiveValues(options.filters, { period: '2025-Q3', regionId });
          for (const panel of options.panels.filter((p: DashboardPanel) => p.drill && p.kind !== 'line')) {
            const name = panel.source.endpoint.split('/').at(-1)!;
            const query: Record<string, string> = {
              createdDateFrom: Q3.createdDateFrom,
              createdDateTo: Q3.createdDateTo,
            };
            if (regionId) query.regionId = regionId;
            const rows = await aggregate(name, query);
            const numbers = [...(panel.columns ?? []), ...(panel.y ?? [])].filter((c) => c.format === 'integer');
            // A sample: every row's first number, and every column of the first row.
            const cells = [
              ...rows.map((row) => ({ row, field: numbers[0]!.field })),
              ...numbers.map((c) => ({ row: rows[0]!, field: c.field })),
            ];
            for (const { row, field } of cells) {
              const group = Object.fromEntries(
                Object.entries(row).filter(([k]) => !manifest.aggregates[name]!.measures.some((m) => m.name === k)),
              );
              const filter = manifest.aggregates[name]!.measures.find((m) => m.name === field)?.filter;
              const drill = drillQuery(panel, options.filters, values, group, filter, LIST_FILTERS);
              expect(await listTotal(drill), `${screenId} ${panel.id} ${field} ${drill}`).toBe(row[field]);
              checked++;
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(50);
    });

    it("a regional department employee counts only their region's appeals; the chair counts all", async () => {
      const q3 = records.filter(inQ3);
      const own = q3.filter((r) => r.regionId === EMPLOYEE_REGION);
      expect(await aggregate('by-region', Q3, 'employee')).toEqual(expectedRows(own, 'regionId'));
      expect(await aggregate('outcomes', Q3, 'employee')).toEqual(expectedRows(own));
      // Asking for another region gives nothing: zero, not that region's numbers.
      const other = await aggregate('outcomes', { ...Q3, regionId: String(REGIONS[1]) }, 'employee');
      expect(other).toEqual(expectedRows([]));
      expect(await aggregate('by-channel', { ...Q3, regionId: String(REGIONS[1]) }, 'employee')).toEqual([]);
      expect(await aggregate('by-region', Q3, 'chair')).toEqual(expectedRows(q3, 'regionId'));
      // The employee's list behind their total says the same.
      expect(await listTotal(new URLSearchParams(Q3), 'employee')).toBe(own.length);
    });

    it('the public submit sets the channel itself: the e-form for a visitor, the cabinet when signed in', async () => {
      const send = async (headers: Record<string, string>, i: number) => {
        const body = submission(appealInput(i, { channelId: 6 }));
        const res = await app.inject({
          method: 'POST',
          url: '/api/outer-cabinet/send-appeal',
          payload: body.payload,
          headers: { ...body.headers, ...headers },
          remoteAddress: `127.0.9.${i % 250}`,
        });
        expect(res.statusCode, res.body).toBe(200);
        return (await app.inject({ method: 'GET', url: `/api/appeal/get/${res.json().id}` })).json();
      };
      expect((await send({ authorization: '' }, 201)).channelId).toBe(1);
      const citizen = await app.inject({
        method: 'POST',
        url: '/api/portal-user/create',
        payload: {
          username: 'stats-citizen',
          firstName: 'A',
          lastName: 'B',
          isOuter: true,
          canLogin: true,
          roles: ['citizen'],
        },
      });
      expect(citizen.statusCode, citizen.body).toBe(200);
      await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        payload: { userId: citizen.json().id, password: PASSWORD },
      });
      const token = (await signIn(app, 'stats-citizen', PASSWORD)).token;
      expect((await send({ authorization: `Bearer ${token}` }, 202)).channelId).toBe(2);
    });
  });
}
