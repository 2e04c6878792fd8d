import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp, TEST_ADMIN_PASSWORD } from '../support/app.ts';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`server on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());

    it('answers /api/health with the database kind', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.json()).toEqual({ status: 'ok', db: backend.name });
    });

    it('publishes an OpenAPI document with every verb of every entity', async () => {
      const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
      expect(doc.openapi).toBe('3.1.0');
      for (const def of app.definitions.entities.values()) {
        const base = `/api${def.manifest.base}`;
        for (const p of [
          '/get/empty',
          '/get/{id}',
          '/create',
          '/update/{id}',
          '/delete/{id}',
          '/list-search',
          '/search-by-keyword',
        ]) {
          expect(doc.paths, `${base}${p}`).toHaveProperty([`${base}${p}`]);
        }
        expect(doc.paths[`${base}/create`].post.requestBody.content['application/json'].schema.properties).toEqual(
          expect.objectContaining(
            Object.fromEntries(Object.keys(def.schema.properties ?? {}).map((k) => [k, expect.anything()])),
          ),
        );
      }
    });

    it('seeds the 14 regions and the committee with districts, in four languages', async () => {
      const regions = (await app.inject({ method: 'GET', url: '/api/reference/region' })).json().list;
      expect(regions).toHaveLength(15);
      for (const r of regions) for (const k of ['nameLt', 'nameUz', 'nameRu', 'nameEn']) expect(r[k]).toBeTruthy();
      const tashkent = regions.find((r: { code: string }) => r.code === '1726');
      const districts = (
        await app.inject({ method: 'GET', url: `/api/reference/district?parent=${tashkent.id}` })
      ).json().list;
      expect(districts.length).toBe(12);
      expect((await app.inject({ method: 'GET', url: '/api/reference/planet' })).statusCode).toBe(404);
    });

    it('answers unknown routes and bad JSON with the error shape, localized', async () => {
      const missing = await app.inject({
        method: 'GET',
        url: '/api/nothing-here',
        headers: { 'accept-language': 'ru' },
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: 'Данные не найдены' });
      const def = [...app.definitions.entities.values()][0]!;
      const bad = await app.inject({
        method: 'POST',
        url: `/api${def.manifest.base}/create`,
        payload: '{"broken',
        headers: { 'content-type': 'application/json', 'accept-language': 'uz' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Barcha majburiy (*) maydonlarni toʻgʻri toʻldiring');
    });

    it('applies its DDL idempotently: a second start changes nothing and records nothing new', async () => {
      const log = async () => (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM _ddl_log')).rows[0]!.n;
      const before = await log();
      const { migrate } = await import('../../src/server/db/migrate.ts');
      await migrate(app.db, app.definitions, app.migrations.list());
      expect(await log()).toBe(before);
      expect(before).toBe(app.definitions.entities.size);
    });
  });
}

describe('PGlite on disk', () => {
  it('keeps acknowledged records across a restart', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-disk-'));
    try {
      const first = await buildApp({ dataDir, adminPassword: TEST_ADMIN_PASSWORD });
      const auth = { authorization: `Bearer ${(await signIn(first)).token}` };
      const def = [...first.definitions.entities.values()].find((d) => d.manifest.keywordFields?.length)!;
      const empty = (
        await first.inject({ method: 'GET', url: `/api${def.manifest.base}/get/empty`, headers: auth })
      ).json();
      const { createSampler } = await import('../support/sample-data.ts');
      const { createServerAjv } = await import('../../src/server/validation.ts');
      const sample = createSampler(def.schema, first.definitions.references, createServerAjv())(42, { full: true });
      const created = await first.inject({
        method: 'POST',
        url: `/api${def.manifest.base}/create`,
        payload: { ...empty, ...sample },
        headers: auth,
      });
      expect(created.statusCode).toBe(200);
      await first.close();
      const second = await buildApp({ dataDir });
      // The session survives the restart: the signing secret is kept in the database.
      const read = await second.inject({
        method: 'GET',
        url: `/api${def.manifest.base}/get/${created.json().id}`,
        headers: auth,
      });
      expect(read.json()).toEqual(created.json());
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
