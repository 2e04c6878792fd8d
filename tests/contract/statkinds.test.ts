/**
 * Online report kinds (issue #20 item 4), on both databases with one app each: a goods, a
 * finance and a digital-markets report are saved; values a kind cannot have are refused with
 * messages in the reader's language; a merge of reports of different kinds is refused in plain
 * words while reports of one kind still merge; a report stored before the kinds existed
 * (schema version 1, no kind) becomes a goods report through migration 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { evolveStoredRecords } from '../../src/server/evolution/record-evolution.ts';

const subject = { stir: '201234567', name: 'Alpha LLC', regionId: 14 };
const period = { periodType: 'ANNUAL', year: 2025 };
const goods = { kind: 'goods', subject, period, industryRows: [{ tariffCode: '1905901000', productName: 'Bread' }] };
const finance = (extra: Record<string, unknown> = {}) => ({
  kind: 'finance',
  subject,
  period,
  finance: {
    revenue: 125_000,
    costOfSales: 90_000,
    grossProfit: 35_000,
    netProfit: -2_500,
    totalAssets: 400_000,
    ...extra,
  },
});
const digital = (segments: string[], extra: Record<string, unknown> = {}) => ({
  kind: 'digital',
  subject,
  period,
  platform: {
    name: 'Bozor.uz',
    url: 'https://bozor.uz',
    platformKind: 'marketplace',
    monthlyActiveUsers: 250_000,
    merchants: 1_200,
    transactions: 80_000,
    gmv: 560_000.5,
    commissionRate: 12.5,
    marketShare: 30,
    ...extra,
  },
  segmentRows: segments.map((segment) => ({ segment, transactions: 10, gmv: 100 })),
});

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`online report kinds on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    }, 120_000);
    afterAll(async () => close?.());

    const post = (url: string, payload: unknown, lang = 'en', query = '') =>
      app.inject({ method: 'POST', url: `/api/online-report/${url}?lang=${lang}${query}`, payload: payload as never });
    const create = async (payload: unknown) => {
      const res = await post('create', payload);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number; kind: string } & Record<string, unknown>;
    };

    it('saves a valid report of each kind, and the list filters by kind', async () => {
      const g = await create(goods);
      const f = await create(finance());
      const d = await create(digital(['Food delivery', 'Parcels']));
      expect([g.kind, f.kind, d.kind]).toEqual(['goods', 'finance', 'digital']);
      expect(f.finance).toMatchObject({ revenue: 125_000, netProfit: -2_500 });
      expect(d.platform).toMatchObject({ platformKind: 'marketplace', commissionRate: 12.5 });
      const list = await post('list-search', {}, 'en', '&kind=finance');
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().list.map((r: { id: number }) => r.id)).toEqual([f.id]);
    });

    it('refuses values a kind cannot have, in the reader’s language', async () => {
      // A finance report needs its indicators; revenue cannot be below zero (profit can).
      const noFigures = await post('create', { kind: 'finance', subject, period }, 'ru');
      expect(noFigures.statusCode).toBe(400);
      expect(Object.keys(noFigures.json().fieldErrors)).toContain('/finance');
      const negative = await post('create', finance({ revenue: -1 }), 'ru');
      expect(negative.statusCode).toBe(400);
      const revenueError = negative.json().fieldErrors['/finance/revenue'];
      expect(revenueError).toMatch(/[а-яё]/i);
      expect(revenueError).not.toMatch(/[a-z]{3}/i);
      // A share above 100 %, a platform address that is no web address, an unknown kind of platform.
      const bad = await post(
        'create',
        digital([], { marketShare: 130, url: 'bozor', platformKind: 'bank' }),
        'uzCyrillic',
      );
      expect(bad.statusCode).toBe(400);
      const errors = bad.json().fieldErrors;
      expect(Object.keys(errors)).toEqual(
        expect.arrayContaining(['/platform/marketShare', '/platform/url', '/platform/platformKind']),
      );
      expect(errors['/platform/marketShare']).toMatch(/[а-яўқғҳ]/i);
      // No kind at all (a client of the old form) is refused, naming the field.
      const { kind: _k, ...noKind } = goods;
      const kindless = await post('create', noKind);
      expect(kindless.statusCode).toBe(400);
      expect(Object.keys(kindless.json().fieldErrors)).toContain('/kind');
    });

    it('merges reports of one kind and refuses reports of different kinds in plain words', async () => {
      const a = await create(digital(['Food delivery']));
      const b = await create(digital(['Taxi', 'Parcels']));
      const merged = await post('merge', { ids: [b.id, a.id] });
      expect(merged.statusCode, merged.body).toBe(200);
      expect(merged.json().kind).toBe('digital');
      expect(merged.json().segmentRows.map((r: { segment: string }) => r.segment)).toEqual([
        'Food delivery',
        'Taxi',
        'Parcels',
      ]);
      const f = await create(finance());
      for (const [lang, words] of [
        [
          'en',
          'Reports of different kinds (goods, finance, digital markets) cannot be merged: choose reports of one kind',
        ],
        ['ru', 'Нельзя объединить отчёты разных видов (товары, финансы, цифровые рынки): выберите отчёты одного вида'],
      ] as const) {
        const refused = await post('merge', { ids: [a.id, f.id] }, lang);
        expect(refused.statusCode).toBe(400);
        expect(refused.json().message).toBe(words);
        expect(refused.json().fieldErrors['/kind']).toBe(words);
      }
    });

    it('turns a report stored before the kinds existed into a goods report (migration 2)', async () => {
      const old = await create({ ...goods, subject: { ...subject, name: 'Old LLC' } });
      const table = app.tables.get('online-report')!.table;
      // As version 1 stored it: no kind.
      await app.db.query(`UPDATE ${table} SET data = data - 'kind', schema_version = 1 WHERE id = $1`, [old.id]);
      await app.db.query(`DELETE FROM record_evolution WHERE entity = 'online-report'`);
      const counts: Array<{ entity: string; migrated: number; failing: number }> = [];
      await evolveStoredRecords(app.db, app.definitions, app.tables, {
        root: app.config.root,
        log: (c) => counts.push(c),
      });
      expect(counts.find((c) => c.entity === 'online-report')).toMatchObject({ migrated: 1, failing: 0 });
      const again = (await app.inject({ method: 'GET', url: `/api/online-report/get/${old.id}` })).json();
      expect(again.kind).toBe('goods');
      expect(again.industryRows).toEqual(goods.industryRows);
      const audit = (await app.inject({ method: 'GET', url: `/api/online-report/audit/${old.id}` })).json();
      expect(audit.list.map((e: { action: string }) => e.action)).toContain('migrate');
    });
  });
}
