/**
 * Hostile values measured on main as 500s (issue #14, finding 3): NUL bytes, lone surrogates
 * and numbers beyond what a bigint column holds. Each is refused as 400 naming the field by
 * its JSON pointer in the caller's language, with nothing written — on both backends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/server/app.ts';
import { pgliteImage } from '../support/pglite-image.ts';
import { backends, createTestDatabase } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { multipart, PNG } from '../support/multipart.ts';
import { appealInput, submission } from '../support/public-samples.ts';

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`hostile input on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());

    /** Rows of every table that a request's input could reach. */
    const footprint = async () => {
      const { rows } = await app.db.query<{ t: string; n: number }>(
        `SELECT 'appeal' AS t, count(*)::int AS n FROM e_appeal UNION ALL SELECT 'audit', count(*)::int FROM audit_log
         UNION ALL SELECT 'files', count(*)::int FROM file_entity UNION ALL SELECT 'submissions', count(*)::int FROM public_submission
         UNION ALL SELECT 'outbox', count(*)::int FROM outbox`,
      );
      return rows;
    };
    /** Sends `options` in English and expects a 400 whose field errors name `pointer`. */
    const refused = async (options: InjectOptions, expected: string | RegExp) => {
      const before = await footprint();
      const res = await app.inject({ ...options, headers: { 'accept-language': 'en', ...options.headers } });
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json() as { message: string; fieldErrors?: Record<string, string> };
      expect(body.message).toBe('Please fill all required (*) fields correctly');
      const pointer = Object.keys(body.fieldErrors ?? {}).find((p) =>
        typeof expected === 'string' ? p === expected : expected.test(p),
      );
      expect(pointer, res.body).toBeDefined();
      expect(body.fieldErrors![pointer!]).toMatch(/^[A-Z]/);
      expect(await footprint()).toEqual(before);
      return body.fieldErrors![pointer!]!;
    };
    const json = (
      method: 'POST' | 'PUT',
      url: string,
      text: string,
      headers: Record<string, string> = {},
    ): InjectOptions => ({ method, url, payload: text, headers: { 'content-type': 'application/json', ...headers } });

    it('refuses a NUL byte in a query parameter (keyword search)', async () => {
      const message = await refused({ method: 'GET', url: '/api/appeal/search-by-keyword?keyword=a%00b' }, '/keyword');
      expect(message).toBe('Contains a character that is not allowed (NUL)');
    });

    it('refuses a NUL byte in the sign-in name, without signing in', async () => {
      await refused(
        json('POST', '/api/auth-payload', '{"username":"ad\\u0000min","password":"x"}', { authorization: '' }),
        '/username',
      );
    });

    it('refuses a NUL byte in the forgot-password login, without signing in', async () => {
      await refused(
        json('POST', '/api/auth/forgot-password/send-code', '{"login":"a\\u0000@example.uz"}', { authorization: '' }),
        '/login',
      );
    });

    it('refuses a NUL byte in an uploaded file name', async () => {
      const body = multipart([{ name: 'rec\u0000eipt.png', type: 'image/png', content: PNG }]);
      await refused(
        { method: 'POST', url: '/api/file-entity/save/appeal', payload: body.payload, headers: body.headers },
        '/files/filename',
      );
    });

    it('refuses a lone surrogate in a record body', async () => {
      const text = JSON.stringify(appealInput(1)).replace('"content":"', '"content":"\\ud800');
      const message = await refused(json('POST', '/api/appeal/create', text), '/content');
      expect(message).toBe('Contains a broken character (an unpaired UTF-16 surrogate)');
    });

    it('refuses a lone surrogate inside the JSON of a public multipart submission, without signing in', async () => {
      const body = submission(appealInput(2));
      const payload = Buffer.from(body.payload.toString('utf8').replace('"content":"', '"content":"\\udc00'));
      await refused(
        {
          method: 'POST',
          url: '/api/outer-cabinet/send-appeal',
          payload,
          headers: { ...body.headers, authorization: '' },
          remoteAddress: '10.14.0.1',
        },
        '/data/content',
      );
    });

    it('refuses an id beyond bigint in the path', async () => {
      const message = await refused({ method: 'GET', url: '/api/appeal/get/9223372036854775807' }, '/id');
      expect(message).toBe('The number is out of range (at most ±9007199254740991)');
    });

    it('refuses a filter beyond bigint in the query', async () => {
      await refused({ method: 'POST', url: '/api/appeal/list-search?regionId=1e20', payload: {} }, '/regionId');
    });

    it('refuses a number beyond bigint inside a comma-separated filter list', async () => {
      await refused(
        { method: 'POST', url: '/api/appeal/list-search?appealTypeIds=1,9223372036854775808', payload: {} },
        '/appealTypeIds',
      );
    });

    it('refuses file ids that are not UUIDs before they reach SQL', async () => {
      await refused({ method: 'GET', url: `/api/file-entity/info?ids=${'0'.repeat(36)}` }, '/ids');
    });

    it('refuses a page beyond bigint in the search body', async () => {
      await refused({ method: 'POST', url: '/api/appeal/list-search', payload: { page: 1e20 } }, '/page');
    });

    it('refuses a number JSON cannot hold (1e400 reads as Infinity)', async () => {
      await refused(json('POST', '/api/appeal/list-search', '{"page":1e400}'), '/page');
    });

    it('refuses nesting deeper than any record has', async () => {
      const deep = `${'['.repeat(1000)}${']'.repeat(1000)}`;
      const text = JSON.stringify(appealInput(3)).replace('"files":[]', `"files":${deep}`);
      const message = await refused(json('POST', '/api/appeal/create', text), /^\/files(\/0){10,}$/);
      expect(message).toMatch(/^Nested too deep/);
    });

    it('answers in the caller’s language', async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/appeal/search-by-keyword?keyword=%00',
        headers: { 'accept-language': 'ru' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().fieldErrors['/keyword']).toMatch(/[а-я]/);
    });
  });
}

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`the database's data exceptions on ${backend.name}`, () => {
    let app: FastifyInstance;
    const lines: Array<{ level: number; msg: string; err?: { code?: string } }> = [];
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
      const database = backend.name === 'postgres' ? await createTestDatabase() : undefined;
      const stream = new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(JSON.parse(chunk.toString()));
          done();
        },
      });
      app = await buildApp({
        dataDir,
        inMemory: !database,
        databaseUrl: database?.url,
        pgliteImage: database ? undefined : await pgliteImage(),
        logger: { level: 'warn', stream },
      });
      // A route that hands its input to SQL unchecked, standing for a gap in validation.
      app.get<{ Querystring: { value: string; as: string } }>('/api/test/cast', async (request) => {
        const type = { int: 'int', date: 'date', json: 'jsonb' }[request.query.as] ?? 'int';
        return (await app.db.query(`SELECT $1::${type} AS v`, [request.query.value])).rows[0];
      });
      await app.ready();
      cleanup = async () => {
        await app.close();
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      };
    });
    afterAll(async () => cleanup?.());

    it.each([
      ['a number beyond int', 'int', '99999999999', '22003'],
      ['text that is not a number', 'int', 'abc', '22P02'],
      ['a day that does not exist', 'date', '2024-02-30', '22008'],
      ['JSON with an escaped NUL', 'json', '{"a":"\\u0000"}', '22P05'],
    ])('answers %s with 400, not 500, and logs the gap as a warning', async (_label, as, value, code) => {
      lines.length = 0;
      const res = await app.inject({
        method: 'GET',
        url: `/api/test/cast?as=${as}&value=${encodeURIComponent(value)}`,
        headers: { 'accept-language': 'en' },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({
        message: 'A value cannot be stored: it is out of range or not valid',
        details: { code },
      });
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      expect(
        lines.some((l) => l.level === 40 && l.msg === 'input refused by the database' && l.err?.code === code),
      ).toBe(true);
    });
  });
}
