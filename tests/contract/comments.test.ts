import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { abilityOfRoles } from '../../src/shared/ability.ts';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { createStaff } from '../support/stomp.ts';
import { EXE, PDF, PNG } from '../support/multipart.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
// An entity with comments, answers and files (the project of spec §3 "project comment").
const def = [...registry.entities.values()].find((d) => d.manifest.comments?.replies && d.manifest.comments.files)!;
const maxLength = def.manifest.comments!.maxLength ?? 4000;
const maxFiles = def.manifest.comments!.files!.maxFiles ?? 5;
const access = registry.access!;
const canRead = (code: string) =>
  abilityOfRoles([access.roles.find((r) => r.code === code)!]).ability.can('read', def.manifest.subject);
// A staff role that reads the entity and one that does not.
const reader = access.roles.find((r) => r.code !== access.adminRole && canRead(r.code))!.code;
const outsider = access.roles.find((r) => !canRead(r.code) && !access.outerRoles?.includes(r.code))!.code;

/** A multipart body of text fields and files. */
function form(fields: Record<string, string>, files: Array<{ name: string; content: Buffer }> = []) {
  const boundary = `----comments${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      f.content,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`comments on ${backend.name} (${def.id})`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let recordId: number;
    let other: { id: string; token: string };
    let stranger: { id: string; token: string };
    const base = `/api${def.manifest.base}/comments`;
    const as = (token: string | undefined, opts: InjectOptions) =>
      app.inject({
        ...opts,
        headers: {
          'accept-language': 'en',
          ...(opts.headers ?? {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      });
    const stored = () => {
      const dir = app.config.filesDir;
      if (!existsSync(dir)) return [];
      return readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => path.join(d.parentPath, d.name))
        .sort();
    };
    const list = async (token?: string) => {
      const res = await as(token, { method: 'GET', url: `${base}/list/${recordId}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().list as Array<Record<string, any>>;
    };
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      const sample = createSampler(def.schema, registry.references, createServerAjv());
      const created = await app.inject({
        method: 'POST',
        url: `/api${def.manifest.base}/create`,
        payload: sample(1, { full: true }),
      });
      expect(created.statusCode, created.body).toBe(200);
      recordId = created.json().id;
      other = await createStaff(app, 'comment-reader', [reader]);
      stranger = await createStaff(app, 'comment-stranger', [outsider]);
    });
    afterAll(async () => close?.());

    it('keeps a thread: a comment with files, answers (one level), plain text, files to the record readers', async () => {
      const first = await as(undefined, {
        method: 'POST',
        url: `${base}/create/${recordId}`,
        ...form({ text: '  <b>Hujjat</b> tayyor\r\nikkinchi qator  ' }, [
          { name: 'scan.png', content: PNG },
          { name: 'act.pdf', content: PDF },
        ]),
      });
      expect(first.statusCode, first.body).toBe(200);
      const c1 = first.json();
      // Plain text as written (trimmed), never turned into markup.
      expect(c1.text).toBe('<b>Hujjat</b> tayyor\nikkinchi qator');
      expect(c1.files.map((f: { mime: string }) => f.mime).sort()).toEqual(['application/pdf', 'image/png']);
      expect(c1.mine).toBe(true);

      const answer = await as(other.token, {
        method: 'POST',
        url: `${base}/create/${recordId}`,
        payload: { text: 'Qabul qilindi', parentId: c1.id },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      // An answer to an answer joins the same thread.
      const deeper = await as(undefined, {
        method: 'POST',
        url: `${base}/create/${recordId}`,
        ...form({ text: 'Rahmat', parentId: String(answer.json().id) }),
      });
      expect(deeper.json().parentId).toBe(c1.id);

      const seenByOther = await list(other.token);
      expect(seenByOther).toHaveLength(1);
      expect(seenByOther[0]!.mine).toBe(false);
      expect(seenByOther[0]!.authorName).toBeTruthy();
      expect(seenByOther[0]!.replies.map((r: { text: string; mine: boolean }) => [r.text, r.mine])).toEqual([
        ['Qabul qilindi', true],
        ['Rahmat', false],
      ]);
      const png = c1.files.find((f: { name: string }) => f.name === 'scan.png');
      const download = await as(other.token, { method: 'GET', url: `${base}/file/${png.id}` });
      expect(download.statusCode).toBe(200);
      expect(createHash('sha256').update(download.rawPayload).digest('hex')).toBe(
        createHash('sha256').update(PNG).digest('hex'),
      );
      // Neither someone who may not read the record nor a visitor gets the thread or its files.
      expect((await as(stranger.token, { method: 'GET', url: `${base}/file/${png.id}` })).statusCode).toBe(403);
      expect((await as(stranger.token, { method: 'GET', url: `${base}/list/${recordId}` })).statusCode).toBe(403);
      expect(
        (await app.inject({ method: 'GET', url: `${base}/list/${recordId}`, headers: { authorization: '' } }))
          .statusCode,
      ).toBe(401);
    });

    it('lets only the author edit or delete; a deleted comment keeps its answers and its files go', async () => {
      const mine = (await list()).at(-1)!;
      const edit = (token: string | undefined, text: string) =>
        as(token, { method: 'PUT', url: `${base}/update/${mine.id}`, payload: { text } });
      expect((await edit(other.token, 'not mine')).statusCode).toBe(403);
      expect((await as(other.token, { method: 'DELETE', url: `${base}/delete/${mine.id}` })).statusCode).toBe(403);
      const edited = await edit(undefined, 'Hujjat tayyor (tuzatildi)');
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().editedAt).toBeTruthy();

      const fileId = mine.files[0].id;
      expect((await as(undefined, { method: 'DELETE', url: `${base}/delete/${mine.id}` })).statusCode).toBe(200);
      const after = (await list()).find((c) => c.id === mine.id)!;
      expect(after).toMatchObject({ deleted: true, text: '', files: [], mine: false });
      expect(after.replies).toHaveLength(2);
      expect((await as(undefined, { method: 'GET', url: `${base}/file/${fileId}` })).statusCode).toBe(404);
      expect((await edit(undefined, 'again')).statusCode).toBe(404);
    });

    it('refuses bad input with field errors and stores nothing', async () => {
      const before = (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM record_comment')).rows[0]!.n;
      const onDisk = stored();
      const post = (payload: Parameters<typeof form>) =>
        as(undefined, { method: 'POST', url: `${base}/create/${recordId}`, ...form(...payload) });
      const empty = await post([{ text: '   ' }]);
      expect(empty.statusCode).toBe(400);
      expect(Object.keys(empty.json().fieldErrors)).toEqual(['/text']);
      const long = await post([{ text: 'x'.repeat(maxLength + 1) }]);
      expect(long.statusCode).toBe(400);
      expect(long.json().fieldErrors['/text']).toMatch(/\d/);
      const ru = await as(undefined, {
        method: 'POST',
        url: `${base}/create/${recordId}`,
        payload: { text: '' },
        headers: { 'accept-language': 'ru' },
      });
      expect(ru.json().fieldErrors['/text']).toMatch(/[а-я]/i);
      expect((await post([{ text: 'exe' }, [{ name: 'a.exe', content: EXE }]])).statusCode).toBe(415);
      const many = Array.from({ length: maxFiles + 1 }, (_, i) => ({ name: `p${i}.png`, content: PNG }));
      expect((await post([{ text: 'many' }, many])).statusCode).toBe(413);
      expect((await post([{ text: 'bad parent', parentId: '999999' }])).statusCode).toBe(400);
      // An id past the database's integers is a plain 400 on /parentId, not a database error.
      const huge = await post([{ text: 'huge parent', parentId: '9223372036854776000' }]);
      expect(huge.statusCode).toBe(400);
      expect(huge.json().fieldErrors).toHaveProperty('/parentId');
      const after = (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM record_comment')).rows[0]!.n;
      expect(after).toBe(before);
      expect((await app.db.query('SELECT 1 FROM record_comment_file')).rows).toHaveLength(0);
      // Files streamed before the text was found wanting are gone from the disk too.
      expect(stored()).toEqual(onDisk);
      const withFile = await post([{ text: '' }, [{ name: 'scan.png', content: PNG }]]);
      expect(withFile.statusCode).toBe(400);
      expect(stored()).toEqual(onDisk);
    });

    it('answers like the record for a record that does not exist or cannot be read', async () => {
      const missing = await as(undefined, { method: 'POST', url: `${base}/create/999999`, payload: { text: 'x' } });
      expect(missing.statusCode).toBe(404);
      const refused = await as(stranger.token, {
        method: 'POST',
        url: `${base}/create/${recordId}`,
        ...form({ text: 'x' }, [{ name: 'scan.png', content: PNG }]),
      });
      expect(refused.statusCode).toBe(
        (await as(stranger.token, { method: 'GET', url: `/api${def.manifest.base}/get/${recordId}` })).statusCode,
      );
      expect((await app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths).toHaveProperty(
        `${base}/create/{id}`,
      );
    });
  });
}
