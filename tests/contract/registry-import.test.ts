/**
 * Price registries refreshed from other agencies (manifest `registryImport`, issue #21 item 5), on
 * both databases through the sandbox upstream: "refresh now" creates the rows of the
 * ministry's price statistics (region and product codes turned into the lists' ids), a second
 * refresh counts them unchanged, a changed record is updated back, a row whose product the
 * committee does not list is counted failed and nothing of it is written; the customs registry
 * asks once per tariff code it tracks; the sweep runs the schedule once a day (a second sweep
 * adds nothing); a role without `create` gets 403; an agency that fails ends the run with its
 * error, recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { createCaller, createStaffUser, startTestApp } from '../support/app.ts';

type Caller = ReturnType<typeof createCaller>;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`registry import on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let admin: Caller;
    // The sandbox has the ministry's prices of 20.11.2026 (Tashkent).
    let now = new Date('2026-11-20T06:00:00Z');
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, { integrationSandbox: true, clock: () => now }));
      admin = createCaller(app);
    }, 120_000);
    afterAll(async () => close?.());

    const counts = (body: Record<string, unknown>) => {
      const { calls, fetched, created, updated, unchanged, failed } = body;
      return { calls, fetched, created, updated, unchanged, failed };
    };
    const idOf = (list: string, code: string) => app.references.list(list)!.find((i) => i.code === code)!.id;

    it('refreshes the statistics prices now: created, then unchanged, a changed one updated back, an unlisted product failed', async () => {
      const first = await admin('POST', '/api/stat-price/registry-import');
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(counts(first.body)).toEqual({ calls: 1, fetched: 6, created: 5, updated: 0, unchanged: 0, failed: 1 });
      const bread = await admin(
        'POST',
        `/api/stat-price/list-search?regionId=14&productId=${idOf('fair-price-product', 'BREAD_LOAF_600G')}`,
        {},
      );
      expect(bread.body.list).toHaveLength(1);
      expect(bread.body.list[0]).toMatchObject({ regionCode: '1726', date: '2026-11-20', avgPrice: 4200 });
      // Andijan's eggs are in; its iodised salt (not on the committee's list) is not.
      expect((await admin('POST', '/api/stat-price/list-search?regionId=2', {})).body.total).toBe(1);

      const second = await admin('POST', '/api/stat-price/registry-import');
      expect(counts(second.body)).toEqual({ calls: 1, fetched: 6, created: 0, updated: 0, unchanged: 5, failed: 1 });

      const record = bread.body.list[0];
      const edited = await admin('PUT', `/api/stat-price/update/${record.id}`, { ...record, avgPrice: 9999 });
      expect(edited.status).toBe(200);
      const third = await admin('POST', '/api/stat-price/registry-import');
      expect(counts(third.body)).toEqual({ calls: 1, fetched: 6, created: 0, updated: 1, unchanged: 4, failed: 1 });
      expect((await admin('GET', `/api/stat-price/get/${record.id}`)).body.avgPrice).toBe(4200);

      const log = await admin('GET', '/api/stat-price/registry-import');
      expect(log.body).toMatchObject({
        integration: 'iqtisodiyot-vazirlik/get-information-1',
        agencyStatus: 'sandbox',
        every: 'day',
      });
      expect(log.body.list.map((r: { id: number }) => r.id)).toEqual([third.body.id, second.body.id, first.body.id]);
      expect(log.body.list[0]).toMatchObject({ trigger: 'manual', userName: 'admin', updated: 1, error: null });
      expect(log.body.list[0].failures).toEqual([
        {
          row: 6,
          key: { '/regionId': '1703', '/productId': 'SALT_IODISED', '/date': '2026-11-20' },
          problem: 'productId: no item with code "SALT_IODISED" in the list fair-price-product',
        },
      ]);
      // The calls are in the platform's audit, made by the system for the registry.
      const audit = await admin('POST', '/api/integrations/audit/list-search', { agency: 'iqtisodiyot-vazirlik' });
      expect(audit.body.list[0]).toMatchObject({ userName: 'system', purpose: 'stat-price registry import (manual)' });
    });

    it('asks the customs committee once for each tariff code the registry tracks', async () => {
      const own = await admin('POST', '/api/customs-record/create', {
        stir: '301234567',
        tnvedCode: '1701991000',
        registrationNumber: '26001/01112026/0000001',
        regime: 'IM40',
        date: '2026-11-01',
      });
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      const run = await admin('POST', '/api/customs-record/registry-import');
      expect(counts(run.body)).toEqual({ calls: 1, fetched: 3, created: 3, updated: 0, unchanged: 0, failed: 0 });
      const sugar = await admin('POST', '/api/customs-record/list-search?tnvedCode=1701991000', {});
      expect(sugar.body.total).toBe(4);
    });

    it('runs the schedule from the sweep once a day', async () => {
      const scheduled = async () =>
        Number(
          (await app.db.query<{ n: string }>("SELECT count(*) AS n FROM registry_import WHERE trigger = 'schedule'"))
            .rows[0]!.n,
        );
      await app.workflow.sweep();
      expect(await scheduled()).toBe(2);
      await app.workflow.sweep();
      expect(await scheduled()).toBe(2);
      now = new Date('2026-11-21T06:00:00Z');
      await app.workflow.sweep();
      expect(await scheduled()).toBe(4);
      const log = await admin('GET', '/api/stat-price/registry-import');
      // The ministry has nothing for the 21st in the sandbox: one call, no rows.
      expect(log.body.list[0]).toMatchObject({
        trigger: 'schedule',
        userName: null,
        calls: 1,
        fetched: 0,
        error: null,
      });
    });

    it('refuses a role without create (403) and records an agency failure as the run error (503)', async () => {
      const employee = await createStaffUser(app, `prices-${backend.name}`, ['employee'], 14);
      expect((await employee.call('GET', '/api/stat-price/registry-import')).status).toBe(200);
      expect((await employee.call('POST', '/api/stat-price/registry-import')).status).toBe(403);
      app.integrationSandbox!.setFault('iqtisodiyot-vazirlik', { status: 500 });
      const down = await admin('POST', '/api/stat-price/registry-import');
      app.integrationSandbox!.setFault('iqtisodiyot-vazirlik', null);
      expect(down.status).toBe(503);
      expect(down.body.message).toBe('Ministry of Economy and Finance did not answer. Try again later');
      const log = await admin('GET', '/api/stat-price/registry-import');
      expect(log.body.list[0], JSON.stringify(log.body.list.slice(0, 3))).toMatchObject({
        trigger: 'manual',
        calls: 0,
        error: 'Ministry of Economy and Finance did not answer. Try again later',
      });
    });
  });
}
