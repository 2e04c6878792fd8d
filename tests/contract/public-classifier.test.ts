/**
 * The tax committee's classifier behind the public product lookup (manifest `remoteSource`:
 * the integration platform's soliq/get-info), on both backends. A small HTTP server started
 * here stands in for the tax committee (INTEGRATION_SOLIQ_URL) and plays scripted faults; the
 * portal's side (list-search, the platform with its retry and timeout, the store, the audits) is
 * the real one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';

const anon = { authorization: '' };
const product = (mxikCode: string, barcode: string) => ({
  name: 'Shakar, oq, 1 kg',
  brand: 'Xorazm Shakar',
  group: 'Shakar',
  class: 'Oq shakar',
  position: 'Qadoqlangan shakar',
  subposition: 'Shakar 1 kg',
  units: 'kg',
  mxikCode,
  tnvedCode: '1701991000',
  barcode,
  extra: 'not ours',
});

/** How the stand-in answers each MXIK code (a list: one answer per call, the last repeats). */
type Answer = { status: number; body?: unknown } | 'hang';
const script = new Map<string, Answer[]>();
const calls: URLSearchParams[] = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const query = new URL(req.url!, 'http://x').searchParams;
    calls.push(query);
    const key = query.get('mxik_code') ?? query.get('international_code') ?? '';
    const answers = script.get(key) ?? [{ status: 404 }];
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (answer === 'hang') return; // never answers: the portal's timeout must end the call
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body === undefined ? '{"error":"not found"}' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/soliq`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`tax classifier through the integration platform on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name, {
        integrationEnv: { INTEGRATION_SOLIQ_URL: url },
        // One silent call must not wait the agency's full 5 s twice.
        integrationOverrides: { timeoutMs: 1000, retryDelayMs: 1 },
      }));
    }, 120_000);
    afterAll(async () => close?.());
    beforeEach(() => {
      calls.length = 0;
      script.clear();
    });

    const search = (query: string, lang = 'en') =>
      app.inject({
        method: 'POST',
        url: `/api/classifier-product/list-search?${query}`,
        payload: {},
        headers: { ...anon, 'accept-language': lang },
      });
    const stored = async (mxikCode: string) =>
      (
        await app.db.query<{ id: number }>(
          `SELECT id FROM ${app.tables.get('classifier-product')!.table} WHERE data->>'mxikCode' = $1`,
          [mxikCode],
        )
      ).rows;

    it('asks the tax committee on a miss, stores the answer as the system (audited) and serves the next lookup locally', async () => {
      script.set('17019910001000000', [{ status: 200, body: product('17019910001000000', '4780000000017') }]);
      const first = await search('mxikCode=17019910001000000', 'ru');
      expect(first.statusCode).toBe(200);
      expect(first.json().total).toBe(1);
      expect(first.json().list[0]).toMatchObject({
        name: 'Shakar, oq, 1 kg',
        barcode: '4780000000017',
        tnvedCode: '1701991000',
      });
      expect(first.json().list[0].extra).toBeUndefined();
      expect(calls).toHaveLength(1);
      expect(calls[0]!.get('mxik_code')).toBe('17019910001000000');
      expect(calls[0]!.get('lang')).toBe('ru');

      const rows = await stored('17019910001000000');
      expect(rows).toHaveLength(1);
      const audit = await app.db.query<{ actor: string | null; action: string }>(
        'SELECT actor, action FROM audit_log WHERE entity = $1 AND record_id = $2',
        ['classifier-product', rows[0]!.id],
      );
      expect(audit.rows).toEqual([{ actor: null, action: 'create' }]);
      // The call is in the platform's audit: the system asked, for the visitor's lookup.
      const platformCalls = await app.db.query<{ user_name: string; method: string; purpose: string; outcome: string }>(
        "SELECT user_name, method, purpose, outcome FROM integration_call WHERE params->>'mxik_code' = $1",
        ['17019910001000000'],
      );
      expect(platformCalls.rows).toEqual([
        { user_name: 'system', method: 'get-info', purpose: 'classifier-product lookup by a visitor', outcome: 'ok' },
      ]);

      // The same product by its barcode, and again by its code: the local table answers.
      expect((await search('barcode=4780000000017')).json().total).toBe(1);
      expect((await search('mxikCode=17019910001000000')).json().total).toBe(1);
      expect(calls).toHaveLength(1);
    });

    it('passes the barcode as international_code and both Uzbek scripts as lang=uz', async () => {
      script.set('4780000000024', [{ status: 200, body: product('17019910002000000', '4780000000024') }]);
      const res = await search('barcode=4780000000024', 'uz-Cyrl');
      expect(res.json().total).toBe(1);
      expect(calls[0]!.get('international_code')).toBe('4780000000024');
      expect(calls[0]!.get('lang')).toBe('uz');
    });

    it('answers "not registered" (an empty list) only when the tax committee says 404; nothing is stored', async () => {
      const res = await search('mxikCode=99999999999999999');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ list: [], total: 0 });
      expect(calls).toHaveLength(1);
      expect(await stored('99999999999999999')).toEqual([]);
    });

    it('tries a failed call once more; two failures are a localized 503 and nothing is stored', async () => {
      script.set('17019910003000000', [
        { status: 500 },
        { status: 200, body: product('17019910003000000', '4780000000031') },
      ]);
      expect((await search('mxikCode=17019910003000000')).json().total).toBe(1);
      expect(calls).toHaveLength(2);

      calls.length = 0;
      script.set('17019910004000000', [{ status: 502 }]);
      const down = await search('mxikCode=17019910004000000', 'ru');
      expect(down.statusCode).toBe(503);
      expect(down.json().message).toBe('Сервис временно недоступен, повторите попытку позже');
      expect(calls).toHaveLength(2);
      expect(await stored('17019910004000000')).toEqual([]);
    });

    it('gives up on a silent service after the timeout and one retry', async () => {
      script.set('17019910005000000', ['hang']);
      const res = await search('mxikCode=17019910005000000');
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('The service is temporarily unavailable, please try again later');
      expect(calls).toHaveLength(2);
    }, 10_000);

    it('refuses an answer that is not a valid product (503), keeping nothing', async () => {
      script.set('17019910006000000', [
        { status: 200, body: { ...product('17019910006000000', '4780000000048'), name: '', tnvedCode: 'abc' } },
      ]);
      const res = await search('mxikCode=17019910006000000');
      expect(res.statusCode).toBe(503);
      expect(await stored('17019910006000000')).toEqual([]);
    });

    it('does not ask for searches the tax committee cannot answer (tariff code, keyword, several filters with others)', async () => {
      expect((await search('tnvedCode=1701991999')).json().total).toBe(0);
      expect((await search('keyword=nothing')).json().total).toBe(0);
      expect((await search('mxikCode=17019910007000000&tnvedCode=1701991000')).json().total).toBe(0);
      expect(calls).toHaveLength(0);
    });
  });
}

describe('without INTEGRATION_SOLIQ_URL (and no sandbox)', () => {
  it('answers from the local table only', async () => {
    const { app, close } = await startTestApp('pglite');
    try {
      calls.length = 0;
      const res = await app.inject({
        method: 'POST',
        url: '/api/classifier-product/list-search?mxikCode=17019910001000000',
        payload: {},
        headers: anon,
      });
      expect(res.json().total).toBe(0);
      expect(calls).toHaveLength(0);
    } finally {
      await close();
    }
  }, 120_000);
});
