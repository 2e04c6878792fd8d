/**
 * The generic public-data endpoints on both backends: declared aggregates (grouping, date
 * buckets, filters, refusals), public registries (publicRead: anonymous list-search and the
 * "not registered" answer of the classifier), the manifests' seed records, daily visits and
 * the per-address rate limit of public endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { REPO_ROOT } from '../../src/server/app.ts';

const anon = { authorization: '' };
const seedOf = (entity: string) =>
  (
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas', entity, 'seed.json'), 'utf8')) as {
      records: Array<Record<string, number | string>>;
    }
  ).records;
const round2 = (n: number) => Math.round(n * 100) / 100;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`public data on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, { seedSamples: true, publicRateLimit: 1000 }));
    }, 120_000);
    afterAll(async () => close?.());

    it('seeds every manifest seed file once, through the store', async () => {
      const fuel = seedOf('fuel-price');
      const res = await app.inject({
        method: 'POST',
        url: '/api/fuel-price/list-search',
        payload: { itemsPerPage: 1 },
        headers: anon,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().total).toBe(fuel.length);
    });

    it('aggregates by group as an anonymous visitor, matching a computation over the seed', async () => {
      const fuel = seedOf('fuel-price').filter((r) => r.regionId === 14);
      const res = await app.inject({
        method: 'GET',
        url: '/api/fuel-price/aggregate/by-fuel?regionId=14',
        headers: anon,
      });
      expect(res.statusCode).toBe(200);
      const list = res.json().list as Array<{
        fuelTypeId: number;
        avgPrice: number;
        minPrice: number;
        maxPrice: number;
        stations: number;
      }>;
      const types = [...new Set(fuel.map((r) => Number(r.fuelTypeId)))].sort((a, b) => a - b);
      expect(list.map((r) => Number(r.fuelTypeId))).toEqual(types);
      for (const row of list) {
        const prices = fuel.filter((r) => r.fuelTypeId === Number(row.fuelTypeId)).map((r) => Number(r.price));
        expect(row.stations).toBe(prices.length);
        expect(row.minPrice).toBe(Math.min(...prices));
        expect(row.maxPrice).toBe(Math.max(...prices));
        expect(row.avgPrice).toBeCloseTo(round2(prices.reduce((a, b) => a + b, 0) / prices.length), 2);
      }
    });

    it('buckets by month (default) or day, and refuses an undeclared bucket or filter', async () => {
      const month = await app.inject({
        method: 'GET',
        url: '/api/fuel-price/aggregate/trend?fuelTypeId=3',
        headers: anon,
      });
      expect(month.statusCode).toBe(200);
      const buckets = (month.json().list as Array<{ bucket: string }>).map((r) => r.bucket);
      expect(buckets.every((b) => /^\d{4}-\d{2}$/.test(b))).toBe(true);
      expect(buckets).toEqual([...buckets].sort());
      const day = await app.inject({
        method: 'GET',
        url: '/api/fuel-price/aggregate/trend?fuelTypeId=3&bucket=day&dateFrom=2026-11-01&dateTo=2026-11-30',
        headers: anon,
      });
      expect((day.json().list as Array<{ bucket: string }>).map((r) => r.bucket)).toEqual(['2026-11-03', '2026-11-17']);
      const bad = await app.inject({
        method: 'GET',
        url: '/api/fuel-price/aggregate/trend?bucket=week',
        headers: anon,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBeTruthy();
      const unknownFilter = await app.inject({
        method: 'GET',
        url: '/api/fuel-price/aggregate/by-fuel?colour=red',
        headers: anon,
      });
      expect(unknownFilter.statusCode).toBe(400);
      const unknown = await app.inject({ method: 'GET', url: '/api/fuel-price/aggregate/nothing', headers: anon });
      expect(unknown.statusCode).toBe(404);
    });

    it('fair prices: min of minima, max of maxima, mean buyer-friendly price per good at a market type', async () => {
      const rows = seedOf('fair-price').filter((r) => r.marketTypeId === 2);
      const res = await app.inject({
        method: 'GET',
        url: '/api/fair-price/aggregate/by-product?marketTypeId=2',
        headers: anon,
      });
      const list = res.json().list as Array<Record<string, number>>;
      expect(list.length).toBeGreaterThan(20);
      const bread = list.find((r) => Number(r.productId) === 1)!;
      const breadRows = rows.filter((r) => r.productId === 1);
      expect(bread.minPrice).toBe(Math.min(...breadRows.map((r) => Number(r.minPrice))));
      expect(bread.maxPrice).toBe(Math.max(...breadRows.map((r) => Number(r.maxPrice))));
      expect(bread.entries).toBe(breadRows.length);
    });

    it('public registries: anyone reads them, only staff write them', async () => {
      const write = await app.inject({
        method: 'POST',
        url: '/api/fair-price/create',
        payload: seedOf('fair-price')[0],
        headers: anon,
      });
      expect(write.statusCode).toBe(401);
      const found = await app.inject({
        method: 'POST',
        url: '/api/classifier-product/list-search?barcode=4780001230018',
        payload: {},
        headers: anon,
      });
      expect(found.statusCode).toBe(200);
      expect(found.json().list.map((r: { mxikCode: string }) => r.mxikCode)).toEqual(['10601001001000000']);
      const byTariff = await app.inject({
        method: 'POST',
        url: '/api/classifier-product/list-search?tnvedCode=1905901000',
        payload: {},
        headers: anon,
      });
      expect(byTariff.json().total).toBe(2);
      const byMxik = await app.inject({
        method: 'GET',
        url: '/api/classifier-product/find-by?field=/mxikCode&value=10801001001000000',
        headers: anon,
      });
      expect(byMxik.json().record.name).toBe('Shakar, oq kristall, 1 kg');
      // Not registered in the national classifier: an empty answer, which the screen words so.
      const absent = await app.inject({
        method: 'POST',
        url: '/api/classifier-product/list-search?mxikCode=99999999999999999',
        payload: {},
        headers: anon,
      });
      expect(absent.json()).toEqual({ list: [], total: 0 });
      // A non-public entity stays closed to visitors.
      const closed = await app.inject({
        method: 'POST',
        url: '/api/contractor/list-search',
        payload: {},
        headers: anon,
      });
      expect(closed.statusCode).toBe(401);
    });

    it('open data: catalogue metadata, CSV and JSON produced from the live rows', async () => {
      const catalogue = await app.inject({ method: 'GET', url: '/api/open-data?lang=en', headers: anon });
      expect(catalogue.statusCode).toBe(200);
      const codes = (catalogue.json().list as Array<{ code: string }>).map((d) => d.code);
      // The whole catalogue is checked dataset by dataset in open-data-catalogue.test.ts.
      expect(codes).toHaveLength(28);
      const created = await app.inject({
        method: 'POST',
        url: '/api/fuel-price/create',
        payload: {
          stationName: 'Test "Quoted", station',
          address: "Toshkent sh.\nYangi ko'cha 1",
          regionId: 14,
          fuelTypeId: 4,
          price: 12345,
          date: '2026-11-21',
        },
      });
      expect(created.statusCode).toBe(200);
      const meta = (
        await app.inject({ method: 'GET', url: '/api/open-data/2-009-0001?lang=en', headers: anon })
      ).json();
      expect(meta.rows).toBe(seedOf('fuel-price').length + 1);
      expect(meta.title).toBe('Prices at filling stations');
      const csv = await app.inject({ method: 'GET', url: '/api/open-data/2-009-0001/data.csv?lang=ru', headers: anon });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe('date,region,regionName,station,address,fuelType,fuelTypeName,priceSom');
      // Newest first; quotes doubled, the comma and the line break kept inside quotes.
      expect(lines[1]).toBe(
        '2026-11-21,14,город Ташкент,"Test ""Quoted"", station","Toshkent sh.\nYangi ko\'cha 1",4,Бензин АИ-95,12345',
      );
      expect(lines.filter(Boolean)).toHaveLength(meta.rows + 1);
      const json = await app.inject({
        method: 'GET',
        url: '/api/open-data/2-009-0001/data.json?lang=en',
        headers: anon,
      });
      const rows = json.json() as Array<Record<string, unknown>>;
      expect(rows).toHaveLength(meta.rows);
      expect(rows[0]).toEqual({
        date: '2026-11-21',
        region: 14,
        regionName: 'Tashkent City',
        station: 'Test "Quoted", station',
        address: "Toshkent sh.\nYangi ko'cha 1",
        fuelType: 4,
        fuelTypeName: 'Petrol AI-95',
        priceSom: 12345,
      });
      expect(
        (await app.inject({ method: 'GET', url: '/api/open-data/2-009-0029/data.csv', headers: anon })).statusCode,
      ).toBe(404);
      expect(
        (await app.inject({ method: 'GET', url: '/api/open-data/2-009-0001/data.xml', headers: anon })).statusCode,
      ).toBe(400);
    });

    it('statistics prices are public and aggregate per region; customs records stay with staff', async () => {
      const rows = seedOf('stat-price').filter((r) => r.productId === 1 && r.regionId === 14);
      const res = await app.inject({
        method: 'GET',
        url: '/api/stat-price/aggregate/by-region?productId=1',
        headers: anon,
      });
      const tashkent = (res.json().list as Array<{ regionId: number; avgPrice: number; entries: number }>).find(
        (r) => Number(r.regionId) === 14,
      )!;
      expect(tashkent.entries).toBe(rows.length);
      expect(tashkent.avgPrice).toBeCloseTo(round2(rows.reduce((a, r) => a + Number(r.avgPrice), 0) / rows.length), 2);
      expect(
        (await app.inject({ method: 'POST', url: '/api/customs-record/list-search', payload: {}, headers: anon }))
          .statusCode,
      ).toBe(401);
      const staff = await app.inject({ method: 'GET', url: '/api/customs-record/aggregate/by-tariff' });
      expect((staff.json().list as Array<{ declarations: number }>).reduce((n, r) => n + r.declarations, 0)).toBe(
        seedOf('customs-record').length,
      );
      expect(
        (await app.inject({ method: 'GET', url: '/api/customs-record/aggregate/by-tariff', headers: anon })).statusCode,
      ).toBe(401);
    });

    it('counts visits per day and answers every day of a month', async () => {
      const before = (await app.inject({ method: 'GET', url: '/api/visit/current-date-stats', headers: anon })).json();
      const added = await app.inject({ method: 'POST', url: '/api/visit/add', headers: anon });
      expect(added.statusCode).toBe(200);
      expect(added.json()).toEqual({ date: before.date, visits: before.visits + 1 });
      const stats = await app.inject({
        method: 'GET',
        url: `/api/visit/stats?month=${before.date.slice(0, 7)}`,
        headers: anon,
      });
      const body = stats.json();
      expect(body.list.find((d: { date: string }) => d.date === before.date).visits).toBe(before.visits + 1);
      expect(body.total).toBe(before.visits + 1);
      const feb = (await app.inject({ method: 'GET', url: '/api/visit/stats?month=2024-02', headers: anon })).json();
      expect(feb.list).toHaveLength(29);
      expect(feb.total).toBe(0);
      const bad = await app.inject({ method: 'GET', url: '/api/visit/stats?month=2024-13', headers: anon });
      expect(bad.statusCode).toBe(400);
    });
  });
}

describe('rate limit of public endpoints', () => {
  it('answers 429 past the per-address budget, with a localized message', async () => {
    const { app, close } = await startTestApp('pglite', { publicRateLimit: 3 });
    try {
      const codes = [];
      for (let i = 0; i < 4; i++)
        codes.push(
          (
            await app.inject({
              method: 'GET',
              url: '/api/visit/current-date-stats',
              headers: { ...anon, 'accept-language': 'en' },
            })
          ).statusCode,
        );
      expect(codes).toEqual([200, 200, 200, 429]);
      const res = await app.inject({ method: 'GET', url: '/api/visit/current-date-stats?lang=ru', headers: anon });
      expect(res.json().message).toMatch(/[а-я]/);
      // Routes that are not public endpoints are not counted.
      expect((await app.inject({ method: 'GET', url: '/api/health', headers: anon })).statusCode).toBe(200);
    } finally {
      await close();
    }
  });
});
