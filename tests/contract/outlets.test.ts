/**
 * Outlets and their automatic reports (spec §1 "fuel, sugar, bakery and flour outlets;
 * auto-generated reports of types petrol, sugar, flour, bakery"; docs/outlets.md), on both
 * databases: an entry's kind and region are the outlet's whatever is sent, and its variant must
 * be one of that kind's; the sweep (the deadline sweep, clock moved) makes one report per type
 * for the month that has ended — not again on a second sweep nor after a restart on the same
 * database —, its rows equal sums computed here from the entries, its XLSX parses with the same
 * rows, and the department heads get an in-app notice; "generate now" is a create with a type
 * and a period. One app per database; on PostgreSQL it is restarted once on the same database
 * (the restart is what is tested; an in-memory PGlite would start empty).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { signIn, TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { backends, createTestDatabase } from '../support/databases.ts';
import { pgliteImage } from '../support/pglite-image.ts';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Running {
  app: FastifyInstance;
  call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<{ status: number; body: Body }>;
  raw(url: string): Promise<Buffer>;
}

/** An app on PostgreSQL (`databaseUrl`, restartable) or on in-memory PGlite from the run's image. */
async function boot(where: { dataDir: string; databaseUrl?: string }, clock: () => Date): Promise<Running> {
  const app = await buildApp({
    dataDir: where.dataDir,
    inMemory: !where.databaseUrl,
    databaseUrl: where.databaseUrl,
    pgliteImage: where.databaseUrl ? undefined : await pgliteImage(),
    adminPassword: TEST_ADMIN_PASSWORD,
    clock,
  });
  await app.ready();
  const { token } = await signIn(app);
  const headers = { authorization: `Bearer ${token}`, 'accept-language': 'en' };
  return {
    app,
    async call(method, url, payload) {
      const res = await app.inject({ method, url, payload: payload as never, headers });
      return { status: res.statusCode, body: res.json() };
    },
    async raw(url) {
      return (await app.inject({ method: 'GET', url, headers })).rawPayload;
    },
  };
}

/** The entries of October 2026 (the month the sweep of 1 November reports): [outlet index, variant, price, stock]. */
const OCTOBER: Array<[number, string, number, number]> = [
  [0, 'bread-600g', 3000, 120],
  [0, 'bread-600g', 3400, 80],
  [1, 'bread-600g', 3200, 50],
  [1, 'bread-other', 5000, 10],
];

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`outlets and automatic reports on ${backend.name}`, () => {
    let now = new Date('2026-10-20T09:00:00Z');
    const clock = () => now;
    let where: { dataDir: string; databaseUrl?: string };
    let drop: (() => Promise<void>) | undefined;
    let r: Running;
    const bakeries: number[] = [];
    let fuelOutlet: number;
    let headId: number;

    beforeAll(async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-outlets-'));
      const db = backend.name === 'postgres' ? await createTestDatabase() : undefined;
      drop = db?.drop;
      where = { dataDir, databaseUrl: db?.url };
      r = await boot(where, clock);
      const head = await r.call('POST', '/api/portal-user/create', {
        username: `head-${backend.name}`,
        firstName: 'Malika',
        lastName: 'Yusupova',
        isOuter: false,
        canLogin: true,
        roles: ['department-head'],
      });
      expect(head.status, JSON.stringify(head.body)).toBe(200);
      headId = head.body.id;
      for (const [kind, name, regionId] of [
        ['bakery', 'Non uyi', 14],
        ['bakery', 'Samarqand noni', 9],
        ['fuel', 'AYOQSH-7', 14],
      ] as const) {
        const made = await r.call('POST', '/api/outlet/create', {
          kind,
          name,
          stir: '301234567',
          address: 'Toshkent',
          regionId,
          active: true,
        });
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        if (kind === 'bakery') bakeries.push(made.body.id);
        else fuelOutlet = made.body.id;
      }
    });
    afterAll(async () => {
      await r?.app.close();
      await drop?.();
      rmSync(where.dataDir, { recursive: true, force: true });
    });

    it("takes an entry's kind and region from its outlet and refuses a variant of another kind", async () => {
      // The kind and region sent are overwritten by the outlet's (prefill always).
      const entry = await r.call('POST', '/api/outlet-entry/create', {
        outletId: bakeries[1],
        kind: 'sugar',
        regionId: 1,
        date: '2026-09-05',
        variant: 'bread-600g',
        price: 3100,
      });
      expect(entry.status, JSON.stringify(entry.body)).toBe(200);
      expect(entry.body).toMatchObject({ kind: 'bakery', regionId: 9 });
      const wrongVariant = await r.call('POST', '/api/outlet-entry/create', {
        outletId: bakeries[0],
        date: '2026-10-05',
        variant: 'sugar-local',
        price: 3100,
      });
      expect(wrongVariant.status).toBe(400);
      expect(Object.keys(wrongVariant.body.fieldErrors ?? {})).toContain('/variant');
      // A fuel outlet's entry names a fuel type, not a variant.
      const fuelWithVariant = await r.call('POST', '/api/outlet-entry/create', {
        outletId: fuelOutlet,
        date: '2026-10-05',
        variant: 'bread-600g',
        price: 9000,
      });
      expect(fuelWithVariant.status).toBe(400);
      const fuel = await r.call('POST', '/api/outlet-entry/create', {
        outletId: fuelOutlet,
        date: '2026-10-05',
        fuelTypeId: 1,
        price: 9000,
        stock: 1500,
        stockUnit: 'l',
      });
      expect(fuel.status, JSON.stringify(fuel.body)).toBe(200);
      expect(fuel.body.kind).toBe('fuel');
    });

    it('makes one report per type for the month that has ended, with rows equal to the entries', async () => {
      for (const [i, variant, price, stock] of OCTOBER) {
        const made = await r.call('POST', '/api/outlet-entry/create', {
          outletId: bakeries[i],
          date: '2026-10-10',
          variant,
          price,
          stock,
          stockUnit: 'piece',
        });
        expect(made.status, JSON.stringify(made.body)).toBe(200);
      }
      // An entry of November is not in October's report.
      await r.call('POST', '/api/outlet-entry/create', {
        outletId: bakeries[0],
        date: '2026-11-01',
        variant: 'bread-600g',
        price: 99999,
      });
      // The clock moves past the end of October.
      now = new Date('2026-11-01T00:30:00Z'); // 05:30 in Tashkent, 1 November
      await r.app.workflow.sweep();
      const list = await r.call('POST', '/api/auto-report/list-search', {
        page: 0,
        itemsPerPage: 100,
      });
      const october = list.body.list.filter((x: Body) => x.periodFrom === '2026-10-01');
      expect(october.map((x: Body) => x.type).sort()).toEqual(['bakery', 'flour', 'petrol', 'sugar']);
      expect(october.every((x: Body) => x.periodTo === '2026-10-31' && x.trigger === 'schedule')).toBe(true);

      const bakery = october.find((x: Body) => x.type === 'bakery')!;
      const expected = (region: number, variant: string) => {
        const rows = OCTOBER.filter(([i, v]) => v === variant && [14, 9][i] === region);
        const prices = rows.map((x) => x[2]);
        return {
          regionId: region,
          variant,
          outlets: new Set(rows.map((x) => x[0])).size,
          entries: rows.length,
          minPrice: Math.min(...prices),
          maxPrice: Math.max(...prices),
          avgPrice: Math.round((prices.reduce((a, b) => a + b, 0) / prices.length) * 100) / 100,
          totalStock: rows.reduce((a, x) => a + x[3], 0),
        };
      };
      expect(bakery.rows).toEqual([expected(9, 'bread-600g'), expected(9, 'bread-other'), expected(14, 'bread-600g')]);
      const petrol = october.find((x: Body) => x.type === 'petrol')!;
      expect(petrol.rows).toEqual([
        {
          regionId: 14,
          fuelTypeId: 1,
          outlets: 1,
          entries: 1,
          minPrice: 9000,
          avgPrice: 9000,
          maxPrice: 9000,
          totalStock: 1500,
        },
      ]);

      // The XLSX: a title, the column titles, the same rows (regions and variants by name, in Russian).
      expect(bakery.file).toHaveLength(1);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load((await r.raw(`/api/file-entity/get/${bakery.file[0]}`)) as never);
      const sheet = book.worksheets[0]!;
      const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
      expect(values(2)).toContain('Средняя цена');
      expect(sheet.rowCount).toBe(2 + bakery.rows.length);
      expect(values(3)).toEqual(['Самаркандская область', 'Хлеб, буханка 600 г', '', 1, 1, 3200, 3200, 3200, 50]);
      expect(values(5)[0]).toBe('город Ташкент');
      expect(values(5).slice(3)).toEqual([1, 2, 3000, 3200, 3400, 200]);

      // The department head is told of each report.
      const { rows: notices } = await r.app.db.query<{ record_id: number }>(
        `SELECT record_id::int AS record_id FROM notification WHERE recipient_id = $1 AND template_key = 'autoReports.ready'`,
        [headId],
      );
      expect(notices.map((n) => n.record_id)).toContain(bakery.id);
    });

    it('does not make a report twice: neither on a second sweep nor after a restart', async () => {
      const count = async () =>
        (await r.call('POST', '/api/auto-report/list-search', { page: 0, itemsPerPage: 100 })).body.total as number;
      const before = await count();
      await r.app.workflow.sweep();
      expect(await count()).toBe(before);
      // A restart on the same database (PostgreSQL: an in-memory PGlite would start empty).
      now = new Date('2026-11-15T12:00:00Z');
      if (backend.name === 'postgres') {
        await r.app.close();
        r = await boot(where, clock);
      }
      await r.app.workflow.sweep();
      expect(await count()).toBe(before);
      // A month later, December's sweep makes November's four.
      now = new Date('2026-12-01T06:00:00Z');
      await r.app.workflow.sweep();
      expect(await count()).toBe(before + 4);
    });

    it('generates a report now for a type and a period, and refuses the same period twice', async () => {
      const made = await r.call('POST', '/api/auto-report/create', {
        type: 'bakery',
        periodFrom: '2026-10-10',
        periodTo: '2026-10-10',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body).toMatchObject({ trigger: 'manual', key: 'bakery:2026-10-10:2026-10-10' });
      expect(made.body.rows).toHaveLength(3);
      const again = await r.call('POST', '/api/auto-report/create', {
        type: 'bakery',
        periodFrom: '2026-10-10',
        periodTo: '2026-10-10',
      });
      expect(again.status).toBe(400);
      const backwards = await r.call('POST', '/api/auto-report/create', {
        type: 'sugar',
        periodFrom: '2026-10-10',
        periodTo: '2026-10-01',
      });
      expect(backwards.status).toBe(400);
      expect(Object.keys(backwards.body.fieldErrors)).toEqual(['/periodTo']);
    });
  });
}
