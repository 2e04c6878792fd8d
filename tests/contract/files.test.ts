import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { buildApp, REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { findFileFields } from '../../src/server/store/record-schema.ts';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES, UPLOADS_PER_MINUTE } from '../../src/server/files/limits.ts';
import { abilityOfRoles } from '../../src/shared/ability.ts';
import { backends, createTestDatabase, postgresAvailable } from '../support/databases.ts';
import { signIn, startTestApp, TEST_ADMIN_PASSWORD } from '../support/app.ts';
import {
  FILE_STORES,
  filesUnder,
  startObjectStore,
  storedFiles,
  type TestObjectStore,
} from '../support/object-store.ts';
import { createSampler } from '../support/sample-data.ts';
import { EXE, PDF, PNG, multipart } from '../support/multipart.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
// Any entity with a top-level file field will do; the files API is the same for all.
const def = [...registry.entities.values()].find((d) => findFileFields(d.schema).some((f) => f.path.length <= 2))!;
const fileField = findFileFields(def.schema).find((f) => f.path.length <= 2)!.path[0]!;
const other = [...registry.entities.values()].find((d) => d.id !== def.id)!;
// Whom the permission data lets upload where: the guest's entity (a public form's attachments),
// one the guest may neither create nor change, and a default role with an entity it may not touch.
const access = registry.access!;
const mayUpload = (permissions: string[], d: { manifest: { subject: string } }) => {
  const { ability } = abilityOfRoles([{ permissions }]);
  return ability.can('create', d.manifest.subject) || ability.can('update', d.manifest.subject);
};
const guestEntity = [...registry.entities.values()].find((d) => mayUpload(access.guest.permissions, d))!;
const closedToGuests = [...registry.entities.values()].find((d) => !mayUpload(access.guest.permissions, d))!;
const limitedRole = access.roles.find(
  (r) => r.code !== access.adminRole && [...registry.entities.values()].some((d) => !mayUpload(r.permissions, d)),
)!;
const closedToRole = [...registry.entities.values()].find((d) => !mayUpload(limitedRole.permissions, d))!;

for (const backend of backends()) {
  for (const store of FILE_STORES) {
    describe.skipIf(!backend.available)(
      `files on ${backend.name}, stored on ${store} (via ${def.id}.${fileField})`,
      () => {
        let app: FastifyInstance;
        let close: () => Promise<void>;
        let objectStore: TestObjectStore | undefined;
        beforeAll(async () => {
          if (store === 's3') objectStore = await startObjectStore();
          ({ app, close } = await startTestApp(backend.name, { filesS3: objectStore?.filesS3 }));
        });
        afterAll(async () => {
          await close?.();
          await objectStore?.stop();
        });

        const upload = (
          kind: string,
          files: Parameters<typeof multipart>[0],
          as: { headers?: Record<string, string>; ip?: string } = {},
        ) => {
          const { payload, headers } = multipart(files);
          return app.inject({
            method: 'POST',
            url: `/api/file-entity/save/${kind}`,
            payload,
            headers: { ...headers, 'accept-language': 'en', ...as.headers },
            ...(as.ip ? { remoteAddress: as.ip } : {}),
          });
        };
        const stored = () => storedFiles(app, objectStore);
        const fileRows = async () =>
          (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM file_entity')).rows[0]!.n;
        const sample = createSampler(def.schema, registry.references, createServerAjv());

        it('stores allowed files with their hash, type by magic bytes, and links them to a record', async () => {
          const res = await upload(def.id, [
            { name: 'photo.png', type: 'image/png', content: PNG },
            { name: 'decision.pdf', type: 'application/pdf', content: PDF },
            { name: 'note.txt', type: 'text/plain', content: Buffer.from('Ариза матни / appeal text\n') },
          ]);
          expect(res.statusCode, res.body).toBe(200);
          const list = res.json().list as Array<{ id: string; mime: string; sha256: string; size: number }>;
          expect(list.map((f) => f.mime)).toEqual(['image/png', 'application/pdf', 'text/plain']);
          expect(list[0]!.sha256).toBe(createHash('sha256').update(PNG).digest('hex'));
          expect(list[0]!.size).toBe(PNG.length);

          // Not yet linked: its uploader may read it, an anonymous caller may not.
          expect((await app.inject({ method: 'GET', url: `/api/file-entity/get/${list[0]!.id}` })).statusCode).toBe(
            200,
          );
          expect(
            (
              await app.inject({
                method: 'GET',
                url: `/api/file-entity/get/${list[0]!.id}`,
                headers: { authorization: '' },
              })
            ).statusCode,
          ).toBe(404);

          const created = await app.inject({
            method: 'POST',
            url: `/api${def.manifest.base}/create`,
            payload: { ...sample(5, { full: true }), [fileField]: list.map((f) => f.id) },
          });
          expect(created.statusCode, created.body).toBe(200);
          const download = await app.inject({ method: 'GET', url: `/api/file-entity/get/${list[0]!.id}` });
          expect(download.statusCode).toBe(200);
          // Linked: readable exactly by who may read the record — not by an anonymous visitor.
          expect(
            (
              await app.inject({
                method: 'GET',
                url: `/api/file-entity/get/${list[0]!.id}`,
                headers: { authorization: '' },
              })
            ).statusCode,
          ).toBe(404);
          expect(download.headers['content-type']).toBe('image/png');
          expect(download.rawPayload.equals(PNG)).toBe(true);

          // A file already linked to one record cannot be claimed by another.
          const thief = await app.inject({
            method: 'POST',
            url: `/api${def.manifest.base}/create`,
            payload: { ...sample(6, { full: true }), [fileField]: [list[1]!.id] },
            headers: { 'accept-language': 'en' },
          });
          expect(thief.statusCode).toBe(400);
          expect(thief.json().fieldErrors).toEqual({
            [`/${fileField}/0`]: 'The file was not found or belongs to another record',
          });

          // Deleting the record makes its files unreachable.
          await app.inject({ method: 'DELETE', url: `/api${def.manifest.base}/delete/${created.json().id}` });
          expect((await app.inject({ method: 'GET', url: `/api/file-entity/get/${list[0]!.id}` })).statusCode).toBe(
            404,
          );
        });

        it('refuses a file uploaded for another entity', async () => {
          const res = await upload(other.id, [{ name: 'photo.png', content: PNG }]);
          expect(res.statusCode).toBe(200);
          const created = await app.inject({
            method: 'POST',
            url: `/api${def.manifest.base}/create`,
            payload: { ...sample(7, { full: true }), [fileField]: [res.json().list[0].id] },
          });
          expect(created.statusCode).toBe(400);
          expect(Object.keys(created.json().fieldErrors)).toEqual([`/${fileField}/0`]);
        });

        it(`refuses uploads to whoever may neither create nor change records of the entity (${closedToGuests.id}, ${limitedRole.code} on ${closedToRole.id}), keeping nothing`, async () => {
          const rowsBefore = await fileRows();
          const filesBefore = (await stored()).length;
          const anonymous = await upload(closedToGuests.id, [{ name: 'photo.png', content: PNG }], {
            headers: { authorization: '', 'accept-language': 'ru' },
            ip: '10.31.0.1',
          });
          expect(anonymous.statusCode).toBe(401);
          expect(anonymous.json().message).toBe('Пожалуйста, войдите в систему');

          const username = `uploader-${limitedRole.code}`.slice(0, 50);
          const user = await app.inject({
            method: 'POST',
            url: '/api/portal-user/create',
            payload: {
              username,
              firstName: 'Up',
              lastName: 'Loader',
              isOuter: access.outerRoles.includes(limitedRole.code),
              canLogin: true,
              roles: [limitedRole.code],
              regionId: 1,
            },
          });
          expect(user.statusCode, user.body).toBe(200);
          await app.inject({
            method: 'POST',
            url: '/api/auth/set-password',
            payload: { userId: user.json().id, password: 'uploader password' },
          });
          const session = await app.inject({
            method: 'POST',
            url: '/api/auth-payload',
            payload: { username, password: 'uploader password' },
            headers: { authorization: '' },
          });
          const refused = await upload(
            closedToRole.id,
            [
              { name: 'photo.png', content: PNG },
              { name: 'decision.pdf', content: PDF },
            ],
            { headers: { authorization: `Bearer ${session.json().token}` } },
          );
          expect(refused.statusCode).toBe(403);
          expect(refused.json().message).toBe('You have no permission to do this action');

          // A guest may attach files to what guests may file (a public appeal's attachments).
          const allowed = await upload(guestEntity.id, [{ name: 'photo.png', content: PNG }], {
            headers: { authorization: '' },
            ip: '10.31.0.2',
          });
          expect(allowed.statusCode, allowed.body).toBe(200);
          expect(await fileRows()).toBe(rowsBefore + 1);
          expect((await stored()).length).toBe(filesBefore + 1);
        });

        it(`lets one address upload anonymously ${UPLOADS_PER_MINUTE} times a minute, then answers a localized 429`, async () => {
          const ip = '10.32.0.1';
          for (let i = 0; i < UPLOADS_PER_MINUTE; i++) {
            expect(
              (
                await upload(guestEntity.id, [{ name: `p${i}.png`, content: PNG }], {
                  headers: { authorization: '' },
                  ip,
                })
              ).statusCode,
            ).toBe(200);
          }
          const rowsBefore = await fileRows();
          const limited = await upload(guestEntity.id, [{ name: 'one-more.png', content: PNG }], {
            headers: { authorization: '', 'accept-language': 'ru' },
            ip,
          });
          expect(limited.statusCode).toBe(429);
          expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
          expect(limited.json().message).toMatch(/^Слишком много запросов/);
          expect(await fileRows()).toBe(rowsBefore);
          // Another address has its own budget; signed-in staff are not counted.
          expect(
            (
              await upload(guestEntity.id, [{ name: 'p.png', content: PNG }], {
                headers: { authorization: '' },
                ip: '10.32.0.2',
              })
            ).statusCode,
          ).toBe(200);
          expect((await upload(guestEntity.id, [{ name: 'p.png', content: PNG }], { ip })).statusCode).toBe(200);
        });

        it('refuses a disallowed type, too many files and a too large file, keeping nothing', async () => {
          const rowsBefore = await fileRows();
          const filesBefore = (await stored()).length;

          const exe = await upload(def.id, [
            { name: 'ok.png', content: PNG },
            { name: 'invoice.pdf', type: 'application/pdf', content: EXE },
          ]);
          expect(exe.statusCode).toBe(415);
          expect(exe.json().message).toBe('This file type is not allowed');

          const maxFiles = def.manifest.files?.maxFiles ?? DEFAULT_MAX_FILES;
          const many = await upload(
            def.id,
            Array.from({ length: maxFiles + 1 }, (_, i) => ({ name: `p${i}.png`, content: PNG })),
          );
          expect(many.statusCode).toBe(413);
          expect(many.json().message).toBe(`Too many files (at most ${maxFiles})`);

          const maxBytes = def.manifest.files?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
          const big = await upload(def.id, [
            { name: 'big.pdf', content: Buffer.concat([PDF, Buffer.alloc(maxBytes, 0x20)]) },
          ]);
          expect(big.statusCode).toBe(413);
          expect(big.json().message).toMatch(/^The file is too large \(at most \d+ [KM]B\)$/);

          const none = await app.inject({
            method: 'POST',
            url: `/api/file-entity/save/${def.id}`,
            payload: { a: 1 },
            headers: { 'accept-language': 'en' },
          });
          expect(none.statusCode).toBe(415);

          expect(await fileRows()).toBe(rowsBefore);
          expect((await stored()).length).toBe(filesBefore);
        });
      },
    );
  }
}

describe.skipIf(!postgresAvailable())(
  'files across instances: two apps sharing only a PostgreSQL database and a bucket',
  () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let objectStore: TestObjectStore;
    const instances: FastifyInstance[] = [];
    const dirs: string[] = [];
    beforeAll(async () => {
      [database, objectStore] = await Promise.all([createTestDatabase(), startObjectStore()]);
      for (let i = 0; i < 2; i++) {
        const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-files-shared-'));
        dirs.push(dataDir);
        const app = await buildApp({
          dataDir,
          databaseUrl: database.url,
          adminPassword: TEST_ADMIN_PASSWORD,
          filesS3: objectStore.filesS3,
        });
        await app.ready();
        instances.push(app);
      }
    }, 180_000);
    afterAll(async () => {
      for (const app of instances) await app.close();
      await database?.drop();
      await objectStore?.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it('downloads through instance B what was uploaded through instance A, and neither keeps it on its disk', async () => {
      const [a, b] = instances as [FastifyInstance, FastifyInstance];
      const [tokenA, tokenB] = [(await signIn(a)).token, (await signIn(b)).token];
      const { payload, headers } = multipart([
        { name: 'photo.png', type: 'image/png', content: PNG },
        { name: 'decision.pdf', type: 'application/pdf', content: PDF },
      ]);
      const uploaded = await a.inject({
        method: 'POST',
        url: `/api/file-entity/save/${def.id}`,
        payload,
        headers: { ...headers, authorization: `Bearer ${tokenA}` },
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const [png, pdf] = uploaded.json().list as Array<{ id: string }>;
      const sample = createSampler(def.schema, registry.references, createServerAjv());
      const created = await a.inject({
        method: 'POST',
        url: `/api${def.manifest.base}/create`,
        payload: { ...sample(11, { full: true }), [fileField]: [png!.id, pdf!.id] },
        headers: { authorization: `Bearer ${tokenA}` },
      });
      expect(created.statusCode, created.body).toBe(200);

      const get = (app: FastifyInstance, token: string, id: string) =>
        app.inject({ method: 'GET', url: `/api/file-entity/get/${id}`, headers: { authorization: `Bearer ${token}` } });
      const fromB = await get(b, tokenB, png!.id);
      expect(fromB.statusCode).toBe(200);
      expect(fromB.headers['content-type']).toBe('image/png');
      expect(fromB.rawPayload.equals(PNG)).toBe(true);
      expect((await get(b, tokenB, pdf!.id)).rawPayload.equals(PDF)).toBe(true);
      expect(await objectStore.keys()).toEqual(expect.arrayContaining([png!.id, pdf!.id]));
      // Only temporary copies ever touch an instance's disk, and none is left.
      for (const app of instances) expect(filesUnder(app.config.filesDir)).toEqual([]);

      // Deleted through B: gone through A as well.
      const deleted = await b.inject({
        method: 'DELETE',
        url: `/api${def.manifest.base}/delete/${created.json().id}`,
        headers: { authorization: `Bearer ${tokenB}` },
      });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await get(a, tokenA, png!.id)).statusCode).toBe(404);
    });
  },
);
