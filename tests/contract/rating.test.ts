/**
 * The agency activity rating and the final forecast indicators (issue #18 items 3 and 6), on
 * both backends: the scorecard capability derives the rating's areas from generated appeals
 * and compliance cases — equal to an independent computation in the test —, keeps the entered
 * points, and writes the total, percent and band whatever the client sends; one rating per
 * region and quarter; a submitted or approved rating is read-only; a department head sees and
 * enters only their region, the chair sees all and approves; the ranking, trend and progress
 * aggregates equal sums computed here; the forecast's progress is computed, never typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { currentPeriod, quarterPeriod } from '../../src/shared/periods.ts';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp, userRecord } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { createRegionPlacer } from '../support/regions.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ajv = createServerAjv();
const sampleOf = (entity: string) => createSampler(registry.entities.get(entity)!.schema, registry.references, ajv);
const sampleAppeal = sampleOf('appeal');
const sampleCase = sampleOf('compliance-case');
const { inRegion } = createRegionPlacer(registry);
const place = (entity: string, data: Json, region: number): Json =>
  inRegion(registry.entities.get(entity)!, data, region);

const HOME = 1;
const ELSEWHERE = 2;
const PASSWORD = 'rating-pass-1';
const QUARTER = currentPeriod('quarter');
const [qYear, qNumber] = [Number(QUARTER.text.slice(0, 4)), Number(QUARTER.text.slice(6))];
/** The quarter before, for a second rating (trend). */
const EARLIER = qNumber > 1 ? quarterPeriod(qYear, qNumber - 1) : quarterPeriod(qYear - 1, 4);
const round2 = (n: number) => Math.round(n * 100) / 100;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`agency rating and forecast on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let head: string;
    let chair: string;
    const expected = { appealsOnTime: 0, casesExecuted: 0, moneyRecovered: 0 };
    const as = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });
    const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token?: string) => {
      const res = await app.inject({
        method,
        url,
        payload: payload as never,
        headers: token ? as(token) : { 'accept-language': 'en' },
      });
      return { status: res.statusCode, body: res.json() as Json };
    };
    const user = async (username: string, roles: string[], regionId: number): Promise<string> => {
      const created = await call('POST', '/api/portal-user/create', userRecord(username, roles, { regionId }));
      expect(created.status).toBe(200);
      expect(
        (await call('POST', '/api/auth/set-password', { userId: created.body.id, password: PASSWORD })).status,
      ).toBe(200);
      return (await signIn(app, username, PASSWORD)).token;
    };
    const setStatus = async (entity: string, ids: number[], status: string) => {
      const table = app.tables.get(entity)!.table;
      await app.db.query(`UPDATE ${table} SET status = $1 WHERE id = ANY($2::bigint[])`, [status, ids]);
    };
    const entered = (points: Record<string, number>) =>
      Object.entries(points).map(([code, p]) => ({ code, points: p }));

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      head = await user('rating-head', ['department-head'], HOME);
      chair = await user('rating-chair', ['chair'], 15);
      // Appeals of the region this quarter (created now); some overdue. Others elsewhere do not count.
      const appeals: Json[] = [];
      for (let i = 0; i < 14; i++) {
        const region = i < 11 ? HOME : ELSEWHERE;
        const data = place('appeal', sampleAppeal(100 + i, { full: false }), region);
        const res = await call('POST', '/api/appeal/create', data);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        appeals.push(res.body);
      }
      const overdue = appeals.filter((a, i) => a.regionId === HOME && i % 3 === 0).map((a) => a.id as number);
      await setStatus('appeal', [...overdue, appeals.at(-1)!.id], 'OVERDUE');
      const received = appeals.filter((a) => a.regionId === HOME).length;
      expected.appealsOnTime = round2(5 * (1 - overdue.length / received));
      // Compliance cases: execution deadline and case date inside or outside the quarter.
      const cases: Json[] = [];
      for (let i = 0; i < 10; i++) {
        const inside = i < 7;
        const day = inside ? QUARTER.from : EARLIER.from;
        const data = {
          ...place('compliance-case', sampleCase(200 + i, { full: false }), i === 9 ? ELSEWHERE : HOME),
          caseDate: day,
          executionDeadline: day,
          amount: 1000 * (i + 1),
          collected: 300 * (i + 1),
        };
        const res = await call('POST', '/api/compliance-case/create', data);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        cases.push(res.body);
      }
      const homeInside = cases.filter((c) => c.regionId === HOME && c.caseDate === QUARTER.from);
      const finished = homeInside.filter((_, i) => i % 2 === 0).map((c) => c.id as number);
      await setStatus('compliance-case', finished, 'FINISHED');
      expected.casesExecuted = round2(4 * (finished.length / homeInside.length));
      const sum = (key: string) => homeInside.reduce((s, c) => s + Number(c[key]), 0);
      expected.moneyRecovered = round2(4 * (sum('collected') / sum('amount')));
    }, 180_000);
    afterAll(async () => close?.());

    let ratingId: number;
    let rating: Json;

    it('derives the areas from the portal data, keeps the entered points and computes the rest', async () => {
      const res = await call(
        'POST',
        '/api/agency-rating/create',
        {
          regionId: HOME,
          period: QUARTER.text,
          entered: [...entered({ methodology: 3, awareness: 2, discipline: 2.5, proposals: 4 })],
          // Computed areas sent by the client: ignored.
          areas: [{ code: 'appealsOnTime', maxPoints: 5, source: 'derived', points: 5 }],
          // Computed fields sent by the client: ignored.
          points: 99,
          maxPoints: 1,
          percent: 100,
          band: 'EXCELLENT',
          key: 'forged',
        },
        head,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      rating = res.body;
      ratingId = rating.id;
      const byCode = Object.fromEntries((rating.areas as Json[]).map((a) => [a.code, a]));
      expect(byCode.appealsOnTime).toMatchObject({ source: 'derived', maxPoints: 5, points: expected.appealsOnTime });
      expect(byCode.casesExecuted).toMatchObject({ source: 'derived', maxPoints: 4, points: expected.casesExecuted });
      expect(byCode.moneyRecovered).toMatchObject({ source: 'derived', maxPoints: 4, points: expected.moneyRecovered });
      expect(byCode.discipline).toMatchObject({ source: 'entered', maxPoints: 3, points: 2.5 });
      const points = round2(
        expected.appealsOnTime + expected.casesExecuted + expected.moneyRecovered + 3 + 2 + 2.5 + 4,
      );
      expect(rating.points).toBe(points);
      expect(rating.maxPoints).toBe(26);
      const percent = Math.round((points / 26) * 1000) / 10;
      expect(rating.percent).toBe(percent);
      const band =
        percent >= 90
          ? 'EXCELLENT'
          : percent >= 75
            ? 'GOOD'
            : percent >= 60
              ? 'AVERAGE'
              : percent >= 45
                ? 'SATISFACTORY'
                : 'UNSATISFACTORY';
      expect(rating.band).toBe(band);
      expect(rating.key).toBe(`${HOME}/${QUARTER.text}`);
      expect(rating.periodStart).toBe(QUARTER.from);
      expect(rating.status).toBe('DRAFT');
    });

    it('a derived area without data has no points, says so and leaves the maximum', async () => {
      const res = await call(
        'POST',
        '/api/agency-rating/create',
        { regionId: HOME, period: EARLIER.text, entered: entered({ methodology: 1 }) },
        head,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const appeals = (res.body.areas as Json[]).find((a) => a.code === 'appealsOnTime')!;
      expect(appeals.points).toBeUndefined();
      expect(appeals.reason).toBe('noData');
      // Cases of the earlier quarter exist (the ones dated outside this quarter).
      expect(res.body.maxPoints).toBe(3 + 4 + 4);
    });

    it('refuses entered points above the area maximum, naming the area', async () => {
      const res = await call(
        'POST',
        '/api/agency-rating/create',
        { regionId: HOME, period: `${qYear - 3}-Q1`, entered: entered({ methodology: 4 }) },
        head,
      );
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.fieldErrors)).toContain('/entered/0/points');
    });

    it('keeps one rating per region and quarter, in plain words', async () => {
      const res = await call(
        'POST',
        '/api/agency-rating/create',
        { regionId: HOME, period: QUARTER.text, entered: [] },
        head,
      );
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/Department and quarter: this value is already registered/);
    });

    it('a department head enters only their region and sees only it; the chair sees all', async () => {
      const other = await call(
        'POST',
        '/api/agency-rating/create',
        { regionId: ELSEWHERE, period: QUARTER.text, entered: [] },
        head,
      );
      expect(other.status).toBe(403);
      const byAdmin = await call('POST', '/api/agency-rating/create', {
        regionId: ELSEWHERE,
        period: QUARTER.text,
        entered: entered({ methodology: 3 }),
      });
      expect(byAdmin.status).toBe(200);
      const headList = await call('POST', '/api/agency-rating/list-search', { page: 0, itemsPerPage: 50 }, head);
      expect(headList.body.list.every((r: Json) => r.regionId === HOME)).toBe(true);
      expect((await call('GET', `/api/agency-rating/get/${byAdmin.body.id}`, undefined, head)).status).toBe(404);
      const chairList = await call('POST', '/api/agency-rating/list-search', { page: 0, itemsPerPage: 50 }, chair);
      expect(new Set(chairList.body.list.map((r: Json) => r.regionId))).toEqual(new Set([HOME, ELSEWHERE]));
      expect(
        (await call('POST', '/api/agency-rating/create', { regionId: 3, period: QUARTER.text, entered: [] }, chair))
          .status,
      ).toBe(403);
    });

    it('an update recomputes; the client still cannot set computed fields', async () => {
      const res = await call(
        'PUT',
        `/api/agency-rating/update/${ratingId}`,
        {
          ...rating,
          entered: entered({ methodology: 0, awareness: 0, discipline: 0, proposals: 0 }),
          percent: 100,
          band: 'EXCELLENT',
        },
        head,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const derived = round2(expected.appealsOnTime + expected.casesExecuted + expected.moneyRecovered);
      expect(res.body.points).toBe(derived);
      expect(res.body.percent).toBe(Math.round((derived / 26) * 1000) / 10);
      rating = res.body;
    });

    it('submitted and approved ratings are read-only; the chair returns with a comment and approves', async () => {
      const send = (event: string, token: string, payload?: Json) =>
        call(
          'POST',
          `/api/agency-rating/transition/${ratingId}`,
          { event, version: rating.version, ...(payload ? { payload } : {}) },
          token,
        );
      let res = await send('APPROVE', head);
      expect(res.status).toBe(403);
      res = await send('SUBMIT', head);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      rating = res.body;
      expect((await call('PUT', `/api/agency-rating/update/${ratingId}`, rating, head)).status).toBe(403);
      res = await send('RETURN', chair, { reason: 'Check the awareness points' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ status: 'DRAFT', returnComment: 'Check the awareness points' });
      rating = res.body;
      rating = (await send('SUBMIT', head)).body;
      res = await send('APPROVE', chair);
      expect(res.status).toBe(200);
      rating = res.body;
      expect(rating.status).toBe('APPROVED');
      const change = await call('PUT', `/api/agency-rating/update/${ratingId}`, {
        ...rating,
        entered: entered({ methodology: 3 }),
      });
      expect(change.status).toBe(403);
      expect((await call('GET', `/api/agency-rating/get/${ratingId}`)).body.points).toBe(rating.points);
    });

    it('ranking and trend equal the sums of the ratings', async () => {
      const all = (await call('POST', '/api/agency-rating/list-search', { page: 0, itemsPerPage: 100 })).body
        .list as Json[];
      const inQuarter = all.filter((r) => r.period === QUARTER.text);
      const res = await call(
        'GET',
        `/api/agency-rating/aggregate/ranking?periodStartFrom=${QUARTER.from}&periodStartTo=${QUARTER.to}`,
        undefined,
        chair,
      );
      expect(res.status).toBe(200);
      const rows = res.body.list as Json[];
      expect(rows.map((r) => r.regionId).sort()).toEqual([HOME, ELSEWHERE]);
      for (const row of rows) {
        const mine = inQuarter.filter((r) => r.regionId === row.regionId);
        expect(row.points).toBeCloseTo(
          mine.reduce((s, r) => s + r.points, 0),
          6,
        );
        expect(row.maxPoints).toBe(mine.reduce((s, r) => s + r.maxPoints, 0));
        expect(row.percent).toBeCloseTo(mine.reduce((s, r) => s + r.percent, 0) / mine.length, 2);
      }
      const headRanking = await call('GET', '/api/agency-rating/aggregate/ranking', undefined, head);
      expect(headRanking.body.list.map((r: Json) => r.regionId)).toEqual([HOME]);
      const trend = (await call('GET', `/api/agency-rating/aggregate/trend?regionId=${HOME}`, undefined, chair)).body
        .list as Json[];
      expect(trend.map((r) => r.period)).toEqual([EARLIER.text, QUARTER.text].sort());
      for (const row of trend)
        expect(row.ratings).toBe(all.filter((r) => r.regionId === HOME && r.period === row.period).length);
    });

    it('forecast progress is computed on save, never typed; the progress aggregate equals the sums', async () => {
      const year = qYear;
      const rows = [
        { regionId: HOME, plan: 200, done: 150 },
        { regionId: HOME, plan: 40, done: 10 },
        { regionId: ELSEWHERE, plan: 10, done: 12 },
      ];
      const created: Json[] = [];
      for (const [i, r] of rows.entries()) {
        const res = await call('POST', '/api/forecast-indicator/create', {
          year,
          indicator: `Indicator ${i}`,
          unitId: 1,
          progress: 1,
          ...r,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        created.push(res.body);
      }
      expect(created.map((r) => r.progress)).toEqual([75, 25, 120]);
      expect(created[0]!.yearStart).toBe(`${year}-01-01`);
      const lastYear = await call('POST', '/api/forecast-indicator/create', {
        year: year - 1,
        regionId: HOME,
        indicator: 'Old',
        unitId: 2,
        plan: 0,
      });
      expect(lastYear.body.progress).toBeUndefined();
      const other = await call(
        'POST',
        '/api/forecast-indicator/create',
        { year, regionId: ELSEWHERE, indicator: 'X', unitId: 1, plan: 1 },
        head,
      );
      expect(other.status).toBe(403);
      const res = await call(
        'GET',
        `/api/forecast-indicator/aggregate/progress?yearStartFrom=${year}-01-01&yearStartTo=${year}-12-31`,
        undefined,
        chair,
      );
      const byRegion = Object.fromEntries((res.body.list as Json[]).map((r) => [r.regionId, r]));
      expect(byRegion[HOME]).toMatchObject({ plan: 240, done: 160, progress: 50, indicators: 2 });
      expect(byRegion[ELSEWHERE]).toMatchObject({ plan: 10, done: 12, progress: 120, indicators: 1 });
      const mine = await call('GET', '/api/forecast-indicator/aggregate/progress', undefined, head);
      expect(mine.body.list.map((r: Json) => r.regionId)).toEqual([HOME]);
    });
  });
}
