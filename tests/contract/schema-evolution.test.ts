/**
 * Schema evolution without data loss (issue #16, item 4), on both databases: a field renamed,
 * removed or given new values, with and without a migration, across a restart of the server
 * on a copy of the definitions (tests/support/definitions-fixture.ts). Nothing stored is ever
 * silently cut down: a migration moves it where it says; a field no migration handles is
 * kept aside and listed on the data-health endpoint; a record refused because of its stored
 * data names the field.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { tableName } from '../../src/server/db/entity-table.ts';
import { backends, createTestDatabase } from '../support/databases.ts';
import { createDefinitionsFixture, type DefinitionsFixture } from '../support/definitions-fixture.ts';
import { createCaller, signIn, TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);

const CONTRACTOR = 'contractor';
const PASSPORT = 'advertising-passport';

interface Running {
  app: FastifyInstance;
  call: ReturnType<typeof createCaller>;
  logs: Array<Record<string, unknown>>;
}

const contractor = (i: number, extra: Record<string, unknown> = {}) => ({
  name: `Contractor ${i}`,
  stir: String(300_000_000 + i),
  regionId: 1,
  director: `Director ${i}`,
  fax: '+99890-123-45-67',
  businessStatus: i % 2 ? 'SUSPENDED' : 'ACTIVE',
  ...extra,
});

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`schema evolution on ${backend.name}`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    /** A database that outlives one server: a PGlite folder or a PostgreSQL database. */
    const freshDatabase = async (): Promise<{ dataDir: string; databaseUrl?: string }> => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-evolve-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      if (backend.name === 'pglite') return { dataDir };
      const db = await createTestDatabase();
      cleanups.push(() => db.drop());
      return { dataDir, databaseUrl: db.url };
    };
    const fixture = (): DefinitionsFixture => {
      const f = createDefinitionsFixture();
      cleanups.push(() => f.remove());
      return f;
    };

    /** Starts a server on the fixture's definitions and the database, signed in as admin. */
    const boot = async (
      defs: DefinitionsFixture,
      where: { dataDir: string; databaseUrl?: string },
      options: { migrationBatchSize?: number } = {},
    ): Promise<Running> => {
      const logs: Array<Record<string, unknown>> = [];
      const stream = new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
          done();
        },
      });
      const app = await buildApp({
        root: defs.root,
        ...where,
        inMemory: false,
        adminPassword: TEST_ADMIN_PASSWORD,
        logger: { level: 'info', stream },
        ...options,
      });
      try {
        await app.ready();
      } catch (error) {
        await app.close();
        throw error;
      }
      const { token } = await signIn(app);
      const inject = app.inject.bind(app);
      const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
        const res = await inject({
          method,
          url,
          payload: payload as never,
          headers: { 'accept-language': 'en', authorization: `Bearer ${token}` },
        });
        return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
      return { app, call, logs };
    };

    const create = async (r: Running, base: string, data: unknown) => {
      const res = await r.call('POST', `/api${base}/create`, data);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { id: number; version: number };
    };
    const migratedLog = (r: Running, entity: string) =>
      r.logs.find((l) => l.entity === entity && typeof l.msg === 'string' && /records checked/.test(l.msg));
    const health = async (r: Running) => {
      const res = await r.call('GET', '/api/admin/data-health');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.list as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };

    it('a rename, a removal and a value mapping keep every stored value where the migration says', async () => {
      const defs = fixture();
      const where = await freshDatabase();
      let r = await boot(defs, where);
      const a = await create(r, '/contractor', contractor(1));
      const b = await create(r, '/contractor', contractor(2));
      await r.app.close();

      defs.renameField(CONTRACTOR, 'director', 'directorName');
      defs.renameLookupSource('director', 'directorName');
      defs.edit(`schemas/${CONTRACTOR}/schema.json`, (s) => {
        s.properties.businessStatus.oneOf = s.properties.businessStatus.oneOf.filter(
          (o: { const: string }) => o.const !== 'SUSPENDED',
        );
      });
      defs.edit(`schemas/${CONTRACTOR}/entity.json`, (m) => {
        m.schemaVersion = 2;
      });
      defs.write(`schemas/${CONTRACTOR}/migrations/2.json`, {
        description: 'The head is now directorName; a suspended business is in liquidation; faxes are gone.',
        steps: [
          { op: 'rename', from: '/director', to: '/directorName' },
          { op: 'mapValues', path: '/businessStatus', map: { SUSPENDED: 'IN_LIQUIDATION' } },
        ],
      });
      r = await boot(defs, where);
      cleanups.push(() => r.app.close());

      const got = (await r.call('GET', `/api/contractor/get/${a.id}`)).body;
      expect(got).toMatchObject({
        directorName: 'Director 1',
        businessStatus: 'IN_LIQUIDATION',
        fax: '+99890-123-45-67',
      });
      expect(got).not.toHaveProperty('director');
      expect((await r.call('GET', `/api/contractor/get/${b.id}`)).body).toMatchObject({
        directorName: 'Director 2',
        businessStatus: 'ACTIVE',
      });
      expect(migratedLog(r, CONTRACTOR)).toMatchObject({ migrated: 2, keptAside: 0, failing: 0 });

      // The audit tells the system did it, naming the migration.
      const audit = (await r.call('GET', `/api/contractor/audit/${a.id}`)).body.list as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(audit[0]).toMatchObject({
        action: 'migrate',
        actor: 'system',
        note: `schemas/${CONTRACTOR}/migrations/2.json`,
      });
      expect(audit[0]!.changed).toEqual(expect.arrayContaining(['director', 'directorName', 'businessStatus']));
      expect(await health(r)).toEqual([]);

      // A removal without a migration: the stored fax is kept aside, not dropped.
      await r.app.close();
      defs.edit(`schemas/${CONTRACTOR}/schema.json`, (s) => {
        delete s.properties.fax;
      });
      defs.edit(`schemas/${CONTRACTOR}/ui.json`, (u) => {
        u.uiSchema['ui:order'] = u.uiSchema['ui:order'].filter((f: string) => f !== 'fax');
        delete u.uiSchema.fax;
      });
      r = await boot(defs, where);
      cleanups.push(() => r.app.close());
      expect(migratedLog(r, CONTRACTOR)).toMatchObject({ migrated: 0, keptAside: 2, failing: 0 });
      const before = (await r.call('GET', `/api/contractor/get/${a.id}`)).body;
      expect(before).not.toHaveProperty('fax');
      // The edit form saves the record without the field; the kept value stays.
      const { id, version, status, owner, createdAt, updatedAt, ...data } = before;
      const saved = await r.call('PUT', `/api/contractor/update/${a.id}`, { ...data, version, name: 'Renamed Ltd' });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const rows = await r.app.db.query<{ kept_aside: Record<string, unknown> }>(
        `SELECT kept_aside FROM ${tableName(CONTRACTOR)} WHERE id = $1`,
        [a.id],
      );
      expect(rows.rows[0]!.kept_aside).toEqual({ '/fax': '+99890-123-45-67' });
      const listed = await health(r);
      expect(listed).toContainEqual(
        expect.objectContaining({
          entity: CONTRACTOR,
          id: a.id,
          version: 2,
          keptAside: [{ pointer: '/fax', value: '+99890-123-45-67' }],
          errors: [],
        }),
      );

      // A later migration that names the field brings the value back where it says.
      await r.app.close();
      defs.edit(`schemas/${CONTRACTOR}/schema.json`, (s) => {
        s.properties.faxNumber = { title: 'entity.contractor.field.fax', type: 'string', maxLength: 20 };
      });
      defs.edit(`schemas/${CONTRACTOR}/ui.json`, (u) => {
        u.uiSchema['ui:order'].push('faxNumber');
      });
      defs.edit(`schemas/${CONTRACTOR}/entity.json`, (m) => {
        m.schemaVersion = 3;
      });
      defs.write(`schemas/${CONTRACTOR}/migrations/3.json`, {
        description: 'The fax is kept as plain text.',
        steps: [{ op: 'rename', from: '/fax', to: '/faxNumber' }],
      });
      r = await boot(defs, where);
      cleanups.push(() => r.app.close());
      expect((await r.call('GET', `/api/contractor/get/${a.id}`)).body).toMatchObject({
        name: 'Renamed Ltd',
        faxNumber: '+99890-123-45-67',
      });
      expect(await health(r)).toEqual([]);
    });

    it('a restart mid-migration resumes where it stopped, migrating each record once', async () => {
      const defs = fixture();
      const where = await freshDatabase();
      let r = await boot(defs, where);
      const ids: number[] = [];
      for (let i = 0; i < 7; i++) ids.push((await create(r, '/contractor', contractor(10 + i))).id);
      await r.app.close();

      defs.renameField(CONTRACTOR, 'director', 'directorName');
      defs.renameLookupSource('director', 'directorName');
      defs.edit(`schemas/${CONTRACTOR}/entity.json`, (m) => {
        m.schemaVersion = 2;
      });
      defs.write(`schemas/${CONTRACTOR}/migrations/2.json`, {
        description: 'The head is now directorName (a script stands in for a crash on one record).',
        covers: ['/director'],
        steps: [
          { op: 'script', module: './2.ts' },
          { op: 'rename', from: '/director', to: '/directorName' },
        ],
      });
      defs.write(
        `schemas/${CONTRACTOR}/migrations/2.ts`,
        `export default (data: Record<string, unknown>) => {
  if ((globalThis as { crashOn?: string }).crashOn === data.name) throw new Error('the power went out');
  return data;
};
`,
      );
      (globalThis as { crashOn?: string }).crashOn = 'Contractor 15';
      await expect(boot(defs, where, { migrationBatchSize: 2 })).rejects.toThrow(/the power went out/);
      (globalThis as { crashOn?: string }).crashOn = undefined;

      r = await boot(defs, where, { migrationBatchSize: 2 });
      cleanups.push(() => r.app.close());
      expect(migratedLog(r, CONTRACTOR)).toMatchObject({ migrated: 3, failing: 0 });
      for (const [i, id] of ids.entries())
        expect((await r.call('GET', `/api/contractor/get/${id}`)).body.directorName).toBe(`Director ${10 + i}`);
      const audits = await r.app.db.query<{ record_id: string; n: number }>(
        `SELECT record_id::text, count(*)::int AS n FROM audit_log WHERE entity = $1 AND action = 'migrate' GROUP BY record_id`,
        [CONTRACTOR],
      );
      expect(audits.rows).toHaveLength(ids.length);
      for (const row of audits.rows) expect(row.n).toBe(1);
    });

    it('a record that still fails its schema is listed, and a transition refused for it names the field', async () => {
      const defs = fixture();
      const where = await freshDatabase();
      let r = await boot(defs, where);
      const def = registry.entities.get(PASSPORT)!;
      const sample = createSampler(def.schema, registry.references, createServerAjv());
      const data: Record<string, unknown> = { ...sample(7, { full: false, minimal: true }), ownerStir: '300000001' };
      delete data.ownerPhone;
      const passport = await create(r, def.manifest.base, data);
      await r.app.close();

      // A field renamed without a migration, and one newly required that the record lacks.
      defs.renameField(PASSPORT, 'ownerStir', 'ownerTin');
      defs.edit(`schemas/${PASSPORT}/schema.json`, (s) => {
        s.required.push('ownerPhone');
      });
      r = await boot(defs, where);
      cleanups.push(() => r.app.close());
      expect(migratedLog(r, PASSPORT)).toMatchObject({ migrated: 0, keptAside: 1, failing: 1 });
      expect(await health(r)).toContainEqual(
        expect.objectContaining({
          entity: PASSPORT,
          id: passport.id,
          keptAside: [{ pointer: '/ownerStir', value: '300000001' }],
          errors: [expect.objectContaining({ pointer: '/ownerPhone', label: "Owner's phone" })],
        }),
      );

      // The list is the administrators': a visitor is asked to sign in.
      expect((await r.app.inject({ method: 'GET', url: '/api/admin/data-health' })).statusCode).toBe(401);
      const base = `/api${def.manifest.base}`;
      // The start-up pass changed the record (a field kept aside): a new version.
      const current = (await r.call('GET', `${base}/get/${passport.id}`)).body;
      expect(current.version).toBe(passport.version + 1);
      const events = (await r.call('GET', `${base}/events/${passport.id}`)).body;
      expect(events.problems).toEqual([expect.objectContaining({ pointer: '/ownerPhone', label: "Owner's phone" })]);
      const refused = await r.call('POST', `${base}/transition/${passport.id}`, {
        event: 'MARK_SEEN',
        version: current.version,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/Owner's phone/);
      expect(Object.keys(refused.body.fieldErrors)).toEqual(['/ownerPhone']);

      // Once the field is filled, the record leaves its state; the kept-aside value stays.
      const record = (await r.call('GET', `${base}/get/${passport.id}`)).body;
      const { id, version, status, owner, createdAt, updatedAt, ...fields } = record;
      const fixed = await r.call('PUT', `${base}/update/${passport.id}`, {
        ...fields,
        ownerPhone: '+99890-123-45-67',
        version,
      });
      expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
      const moved = await r.call('POST', `${base}/transition/${passport.id}`, {
        event: 'MARK_SEEN',
        version: fixed.body.version,
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(await health(r)).toContainEqual(
        expect.objectContaining({ entity: PASSPORT, id: passport.id, errors: [] }),
      );
    });
  });
}
