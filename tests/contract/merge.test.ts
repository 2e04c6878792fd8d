/**
 * The generic merge of a manifest's `merge` (the online report): on both backends, two or
 * more records become a new one with the first's scalar data and every record's rows, in id
 * order; fewer than two are refused with the spec's message; a guest may not merge and the
 * sources are left unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';

const report = (name: string, rows: string[], services: string[]) => ({
  kind: 'goods',
  subject: { stir: '201234567', name, regionId: 14 },
  period: { periodType: 'ANNUAL', year: 2025 },
  industryRows: rows.map((productName, i) => ({ tariffCode: `190590100${i}`, productName })),
  serviceRows: services.map((n) => ({ name: n })),
});

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`merge on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    }, 120_000);
    afterAll(async () => close?.());

    const create = async (body: ReturnType<typeof report>) => {
      const res = await app.inject({ method: 'POST', url: '/api/online-report/create', payload: body });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number; version: number };
    };

    it("merges two or more reports into a new one: first report's subject, every report's rows in id order", async () => {
      const a = await create(report('Alpha LLC', ['Bread', 'Flour'], ['Delivery']));
      const b = await create(report('Beta LLC', ['Sugar'], []));
      const c = await create(report('Gamma LLC', [], ['Repair', 'Storage']));
      const res = await app.inject({
        method: 'POST',
        url: '/api/online-report/merge',
        payload: { ids: [c.id, a.id, b.id] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const merged = res.json();
      expect(merged.id).toBeGreaterThan(c.id);
      expect(merged.subject.name).toBe('Alpha LLC');
      expect(merged.industryRows.map((r: { productName: string }) => r.productName)).toEqual([
        'Bread',
        'Flour',
        'Sugar',
      ]);
      expect(merged.serviceRows.map((r: { name: string }) => r.name)).toEqual(['Delivery', 'Repair', 'Storage']);
      // The sources are unchanged.
      const again = (await app.inject({ method: 'GET', url: `/api/online-report/get/${b.id}` })).json();
      expect(again.version).toBe(b.version);
      expect(again.industryRows).toHaveLength(1);
      const audit = (await app.inject({ method: 'GET', url: `/api/online-report/audit/${merged.id}` })).json();
      expect(audit.list[0].action).toBe('create');
    });

    it("refuses fewer than two reports with the spec's message, and unknown ids with 404", async () => {
      const a = await create(report('Solo LLC', ['Rice'], []));
      const one = await app.inject({
        method: 'POST',
        url: '/api/online-report/merge?lang=en',
        payload: { ids: [a.id] },
      });
      expect(one.statusCode).toBe(400);
      expect(one.json().message).toBe('At least 2 reports must be selected to merge');
      const missing = await app.inject({
        method: 'POST',
        url: '/api/online-report/merge',
        payload: { ids: [a.id, 999999] },
      });
      expect(missing.statusCode).toBe(404);
      const total = (await app.inject({ method: 'POST', url: '/api/online-report/list-search', payload: {} })).json()
        .total;
      expect(total).toBe(5); // three, their merge, the lone one — nothing more
    });

    it('a visitor may file a report but not merge', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/online-report/merge',
        payload: { ids: [1, 2] },
        headers: { authorization: '' },
      });
      expect(res.statusCode).toBe(401);
    });
  });
}
