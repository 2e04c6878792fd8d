/**
 * The antimonopoly compliance self-assessment (issue #20 item 5), on both backends: a fixed
 * answer set scores exactly (areas, points, score 0–100, level, weak areas and their
 * recommendations) whatever score the client sends; a business sees only its own submissions;
 * staff take, return (the business corrects, the score follows, it resubmits) and accept with a
 * comment, after which nothing changes; the summary by sector equals the records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp } from '../support/app.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PASSWORD = 'compliance-pass-1';
const REGION = 1;
const YEAR = String(new Date().getUTCFullYear());
const [TRADE, BUILDING] = [7, 6];
const i18n = JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas/compliance-assessment/i18n.json'), 'utf8'));

/** The fixed answer set of the scoring test, with the result worked out by hand beside it. */
const FIXED = {
  programme: {
    policy: 'YES',
    policyApproved: 'PARTIAL', // policy 5 × 0.75 = 3.75
    officer: 'YES',
    officerIndependent: 'YES', // officer 4
    training: 'NO', // training 0 — weak
    reporting: 'PARTIAL', // reporting 1.5 (50 %) — weak
  },
  risks: {
    riskMap: 'YES',
    riskReview: 'NO', // riskMap 2.5 (50 %) — weak
    contractReview: 'YES', // contracts 4
    pricingPolicy: 'YES',
    competitors: 'YES',
    dominance: 'PARTIAL', // conduct 5 × 2.5 / 3 = 4.17
    procurement: 'YES', // procurement 3
  },
  results: { audits: 'NO', remedied: 'NO', violations: 1, trainedStaff: 12, reviewedContracts: 40 }, // audits 0 — weak
};
const ALL = (answer: string) => ({
  programme: Object.fromEntries(Object.keys(FIXED.programme).map((k) => [k, answer])),
  risks: Object.fromEntries(Object.keys(FIXED.risks).map((k) => [k, answer])),
  results: { audits: answer, remedied: answer },
});
const company = (sectorId: number, name: string) => ({
  stir: '301234567',
  companyName: name,
  sectorId,
  regionId: REGION,
  year: YEAR,
  employees: 120,
});

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`compliance self-assessment on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let business: string;
    let other: string;
    let staff: string;
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token?: string) => {
      const headers: Record<string, string> = { 'accept-language': 'en' };
      if (token) headers.authorization = `Bearer ${token}`;
      const res = await app.inject({ method, url, payload: payload as never, headers });
      return { status: res.statusCode, body: res.json() as Json };
    };
    const user = async (username: string, roles: string[], isOuter: boolean): Promise<string> => {
      const created = await call('POST', '/api/portal-user/create', {
        username,
        firstName: 'Test',
        lastName: username,
        isOuter,
        canLogin: true,
        roles,
        regionId: REGION,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      await call('POST', '/api/auth/set-password', { userId: created.body.id, password: PASSWORD });
      return (await signIn(app, username, PASSWORD)).token;
    };
    const submit = (data: Json, token = business) => call('POST', '/api/compliance-assessment/create', data, token);
    const send = (record: Json, event: string, token: string, payload?: Json) =>
      call(
        'POST',
        `/api/compliance-assessment/transition/${record.id}`,
        { event, version: record.version, ...(payload ? { payload } : {}) },
        token,
      );

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      business = await user('compliance-biz', ['business'], true);
      other = await user('compliance-biz-2', ['business'], true);
      staff = await user('compliance-staff', ['employee'], false);
    });
    afterAll(async () => close?.());

    it('scores a fixed answer set exactly and ignores a score the client sends', async () => {
      const res = await submit({
        ...company(TRADE, 'Fixed LLC'),
        ...FIXED,
        score: 100,
        level: 'HIGH',
        points: 36,
        maxPoints: 36,
        recommendations: [],
        weak: {},
        areas: [],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const r = res.body;
      expect(r.status).toBe('SUBMITTED');
      expect(r.areas.map((a: Json) => [a.code, a.points])).toEqual([
        ['policy', 3.75],
        ['officer', 4],
        ['training', 0],
        ['reporting', 1.5],
        ['riskMap', 2.5],
        ['contracts', 4],
        ['conduct', 4.17],
        ['procurement', 3],
        ['audits', 0],
      ]);
      expect(r).toMatchObject({
        points: 22.92,
        maxPoints: 36,
        score: 63.7,
        level: 'MEDIUM',
        periodStart: `${YEAR}-01-01`,
      });
      expect(r.recommendations).toEqual(
        ['training', 'reporting', 'riskMap', 'audits'].map((code) => ({ area: code, recommendation: code })),
      );
      expect(r.weak).toEqual({ training: true, reporting: true, riskMap: true, audits: true });
      // Each recommendation has its text in the four languages.
      for (const lang of ['en', 'ru', 'uz', 'uzCyrillic'])
        for (const { recommendation: code } of r.recommendations)
          expect(i18n[lang].entity['compliance-assessment'].recommendation[code], `${lang} ${code}`).toMatch(/\S{3}/);
      // The record's values stay as scored when read back.
      expect((await call('GET', `/api/compliance-assessment/get/${r.id}`, undefined, business)).body.score).toBe(63.7);
    });

    it('all yes is 100 and HIGH with no recommendations; all no is 0 and LOW with all nine', async () => {
      const top = (await submit({ ...company(TRADE, 'Top LLC'), ...ALL('YES') })).body;
      expect(top).toMatchObject({ score: 100, level: 'HIGH', recommendations: [], weak: {} });
      const low = (await submit({ ...company(BUILDING, 'Low LLC'), ...ALL('NO') })).body;
      expect(low).toMatchObject({ score: 0, level: 'LOW', points: 0, maxPoints: 36 });
      expect(low.recommendations).toHaveLength(9);
    });

    it('refuses an incomplete form with the field named, storing nothing', async () => {
      const { programme, ...rest } = ALL('YES');
      const res = await submit({
        ...company(TRADE, 'Half LLC'),
        ...rest,
        programme: { ...programme, policy: 'MAYBE' },
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.fieldErrors)).toContain('/programme/policy');
    });

    it('a business sees only its own; staff take, return, the business corrects and resubmits, staff accept', async () => {
      let record = (await submit({ ...company(BUILDING, 'Review LLC'), ...FIXED })).body;
      const theirs = await call('POST', '/api/compliance-assessment/list-search', { page: 0, itemsPerPage: 50 }, other);
      expect(theirs.body.list).toEqual([]);
      expect((await call('GET', `/api/compliance-assessment/get/${record.id}`, undefined, other)).status).toBe(404);
      expect((await send(record, 'TAKE', business)).status).toBe(403);
      expect((await call('PUT', `/api/compliance-assessment/update/${record.id}`, record, business)).status).toBe(403);
      let res = await send(record, 'TAKE', staff);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      record = res.body;
      expect(record.status).toBe('UNDER_REVIEW');
      res = await send(record, 'RETURN', staff, { reason: 'Attach the training plan and answer again' });
      expect(res.body).toMatchObject({
        status: 'RETURNED',
        returnComment: 'Attach the training plan and answer again',
      });
      record = res.body;
      res = await call(
        'PUT',
        `/api/compliance-assessment/update/${record.id}`,
        { ...record, programme: { ...record.programme, training: 'YES' }, score: 5 },
        business,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      record = res.body;
      expect(record).toMatchObject({ points: 25.92, score: 72, level: 'MEDIUM' });
      expect(record.recommendations.map((x: Json) => x.area)).toEqual(['reporting', 'riskMap', 'audits']);
      record = (await send(record, 'RESUBMIT', business)).body;
      expect(record.status).toBe('SUBMITTED');
      record = (await send(record, 'TAKE', staff)).body;
      res = await send(record, 'ACCEPT', staff, { comment: 'Score confirmed' });
      expect(res.body).toMatchObject({ status: 'ACCEPTED', staffComment: 'Score confirmed', score: 72 });
      record = res.body;
      expect((await call('PUT', `/api/compliance-assessment/update/${record.id}`, record, business)).status).toBe(403);
      const mine = await call('GET', `/api/compliance-assessment/get/${record.id}`, undefined, business);
      expect(mine.body).toMatchObject({ status: 'ACCEPTED', score: 72 });
    });

    it('the summary by sector equals the records, and a weak-area count opens the same records', async () => {
      const range = `periodStartFrom=${YEAR}-01-01&periodStartTo=${YEAR}-12-31`;
      const all = (
        await call('POST', `/api/compliance-assessment/list-search?${range}`, { page: 0, itemsPerPage: 100 }, staff)
      ).body.list as Json[];
      expect(all.length).toBeGreaterThanOrEqual(4);
      const sectors = (await call('GET', `/api/compliance-assessment/aggregate/sectors?${range}`, undefined, staff))
        .body.list as Json[];
      const weakRows = (await call('GET', `/api/compliance-assessment/aggregate/weak-areas?${range}`, undefined, staff))
        .body.list as Json[];
      for (const sectorId of [TRADE, BUILDING]) {
        const mine = all.filter((r) => r.sectorId === sectorId);
        const row = sectors.find((s) => Number(s.sectorId) === sectorId)!;
        expect(Number(row.submissions)).toBe(mine.length);
        const avg = mine.reduce((s, r) => s + r.score, 0) / mine.length;
        expect(Number(row.score)).toBeCloseTo(avg, 6);
        for (const level of ['HIGH', 'MEDIUM', 'LOW'])
          expect(Number(row[level.toLowerCase()]), level).toBe(mine.filter((r) => r.level === level).length);
        const weak = weakRows.find((s) => Number(s.sectorId) === sectorId)!;
        for (const area of ['training', 'reporting', 'riskMap', 'audits', 'policy'])
          expect(Number(weak[area]), area).toBe(mine.filter((r) => r.weak?.[area] === true).length);
      }
      const drill = await call(
        'POST',
        `/api/compliance-assessment/list-search?${range}&sectorId=${TRADE}&weakTraining=true`,
        { page: 0, itemsPerPage: 100 },
        staff,
      );
      const tradeWeak = weakRows.find((s) => Number(s.sectorId) === TRADE)!;
      expect(drill.body.total ?? drill.body.list.length).toBe(Number(tradeWeak.training));
    });
  });
}
