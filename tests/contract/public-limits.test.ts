/**
 * Limits of the public services on both backends: the visitor's address behind trusted
 * proxies (TRUST_PROXY → Fastify trustProxy) in the lookup log and the per-address budgets,
 * and the per-address budget of the draft endpoints (drafts need no account); with
 * RATE_LIMIT_SHARED, one budget across two instances on one PostgreSQL database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backends, createTestDatabase, postgresAvailable } from '../support/databases.ts';
import { startTestApp, TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { buildApp, parseTrustProxy } from '../../src/server/app.ts';
import { DEFAULT_LOOKUPS_PER_MINUTE } from '../../src/server/capabilities/publicLookups/plugin.ts';
import { DRAFTS_PER_MINUTE } from '../../src/server/capabilities/drafts/plugin.ts';
import { createStaff } from '../support/stomp.ts';

const anon = { authorization: '' };
const LOOKUP = '/api/public-lookup/court-notice/summons?pinfl=31205891234567';

describe('TRUST_PROXY', () => {
  it('reads true, a hop count, or comma-separated addresses and CIDRs; empty or false is off', () => {
    expect(parseTrustProxy(undefined)).toBeUndefined();
    expect(parseTrustProxy('')).toBeUndefined();
    expect(parseTrustProxy('false')).toBeUndefined();
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.4')).toEqual(['10.0.0.0/8', '192.168.1.4']);
  });
});

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`public limits on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      // The balancers live in 10.0.0.0/8; anything else talking to the app is not believed.
      ({ app, close } = await startTestApp(backend.name, { trustProxy: ['10.0.0.0/8'] }));
    }, 120_000);
    afterAll(async () => close?.());

    const loggedAddresses = async () =>
      (await app.db.query<{ ip: string }>('SELECT ip FROM public_lookup_log ORDER BY id')).rows.map((r) => r.ip);
    const lookup = (remoteAddress: string, forwardedFor: string) =>
      app.inject({
        method: 'GET',
        url: LOOKUP,
        remoteAddress,
        headers: { ...anon, 'x-forwarded-for': forwardedFor, 'accept-language': 'en' },
      });

    it('logs the visitor behind a trusted balancer, and the connection when the sender is not trusted', async () => {
      expect((await lookup('10.1.2.3', '203.0.113.7')).statusCode).toBe(200);
      // A visitor cannot choose their address by sending the header themselves.
      expect((await lookup('198.51.100.9', '203.0.113.99')).statusCode).toBe(200);
      expect(await loggedAddresses()).toEqual(['203.0.113.7', '198.51.100.9']);
    });

    it('counts lookups per visitor behind the balancer, not per balancer', async () => {
      await app.db.query('DELETE FROM public_lookup_log');
      const first = [];
      for (let i = 0; i < DEFAULT_LOOKUPS_PER_MINUTE + 1; i++)
        first.push((await lookup('10.0.0.5', '203.0.113.20')).statusCode);
      expect(first.slice(0, DEFAULT_LOOKUPS_PER_MINUTE).every((c) => c === 200)).toBe(true);
      const refused = await lookup('10.0.0.5', '203.0.113.20');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another visitor through the same balancer still has their budget.
      expect((await lookup('10.0.0.5', '203.0.113.21')).statusCode).toBe(200);
    });

    it('limits draft saves and loads per address: 429 with a localized message and retry-after; other addresses go on', async () => {
      const draft = (remoteAddress: string, lang = 'en') =>
        app.inject({
          method: 'POST',
          url: '/api/appeal/draft',
          remoteAddress,
          payload: { content: 'draft' },
          headers: { ...anon, 'accept-language': lang },
        });
      const codes = [];
      for (let i = 0; i < DRAFTS_PER_MINUTE; i++) codes.push((await draft('198.51.100.30')).statusCode);
      expect(codes.every((c) => c === 200)).toBe(true);
      const count = async () =>
        Number((await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM draft')).rows[0]!.n);
      const before = await count();
      const refused = await draft('198.51.100.30', 'ru');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/[а-я]/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await count()).toBe(before);
      // Loading a draft is counted in the same budget (a private link is not to be guessed at speed).
      const load = await app.inject({
        method: 'GET',
        url: '/api/appeal/draft/00000000-0000-4000-8000-000000000000',
        remoteAddress: '198.51.100.30',
        headers: anon,
      });
      expect(load.statusCode).toBe(429);
      expect((await draft('198.51.100.31')).statusCode).toBe(200);
      // Drafts have a budget of their own: the address may still look things up.
      expect((await lookup('198.51.100.30', '')).statusCode).toBe(200);
    });

    it('does not count signed-in staff, who share their office’s address; outer users are counted', async () => {
      const clerk = await createStaff(app, 'limits-clerk', ['employee']);
      const visitor = await createStaff(app, 'limits-citizen', ['citizen'], { isOuter: true });
      const draftAs = (token: string) =>
        app.inject({
          method: 'POST',
          url: '/api/appeal/draft',
          remoteAddress: '198.51.100.40',
          payload: { content: 'draft' },
          headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
        });
      const staffCodes = [];
      for (let i = 0; i < DRAFTS_PER_MINUTE + 2; i++) staffCodes.push((await draftAs(clerk.token)).statusCode);
      expect(staffCodes.filter((c) => c === 429)).toEqual([]);
      const outerCodes = [];
      for (let i = 0; i < DRAFTS_PER_MINUTE + 1; i++) outerCodes.push((await draftAs(visitor.token)).statusCode);
      expect(outerCodes.slice(0, DRAFTS_PER_MINUTE).every((c) => c !== 429)).toBe(true);
      expect(outerCodes.at(-1)).toBe(429);
    });
  });
}

describe.skipIf(!postgresAvailable())('RATE_LIMIT_SHARED: two instances on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const instances: FastifyInstance[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-limits-'));
      dirs.push(dataDir);
      const app = await buildApp({
        dataDir,
        databaseUrl: database.url,
        adminPassword: TEST_ADMIN_PASSWORD,
        rateLimitShared: true,
      });
      await app.ready();
      instances.push(app);
    }
  }, 180_000);
  afterAll(async () => {
    for (const app of instances) await app.close();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('shares one budget per address between the instances behind a balancer', async () => {
    const [a, b] = instances as [FastifyInstance, FastifyInstance];
    const draft = (app: FastifyInstance, remoteAddress: string) =>
      app.inject({
        method: 'POST',
        url: '/api/appeal/draft',
        remoteAddress,
        payload: { content: 'draft' },
        headers: { ...anon, 'accept-language': 'en' },
      });
    const codes = [];
    for (let i = 0; i < DRAFTS_PER_MINUTE; i++) codes.push((await draft(i % 2 ? a : b, '198.51.100.50')).statusCode);
    expect(codes.every((c) => c === 200)).toBe(true);
    expect((await draft(a, '198.51.100.50')).statusCode).toBe(429);
    const refused = await draft(b, '198.51.100.50');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is untouched on either instance.
    expect((await draft(b, '198.51.100.51')).statusCode).toBe(200);
  });
});
