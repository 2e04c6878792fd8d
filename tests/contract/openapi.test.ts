/**
 * The OpenAPI document at /api/docs/json (issue #14, finding 9): valid by a maintained
 * validator, covering every HTTP route the app registers (sign-in included), describing
 * multipart bodies and naming the live socket. The document does not depend on the database,
 * so it is read from one PGlite app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.ts';
import { pgliteImage } from '../support/pglite-image.ts';
import { STOMP_PATH } from '../../src/server/services/stomp.ts';

interface Operation {
  tags?: string[];
  summary?: string;
  parameters?: Array<{ name: string; in: string; schema?: unknown }>;
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses?: Record<string, { description?: string; content?: unknown }>;
}
type Doc = {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  'x-live-socket'?: { path: string; protocol: string };
};

/** Where the doc path of a Fastify route is: `:id` → `{id}`. */
const docPath = (url: string): string => url.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document', () => {
  let app: FastifyInstance;
  let doc: Doc;
  let dataDir: string;
  const routes: Array<{ method: string; url: string }> = [];
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
    app = await buildApp({
      dataDir,
      inMemory: true,
      pgliteImage: await pgliteImage(),
      onRoute: (route) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      },
    });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, method, op })),
    );

  it('is valid OpenAPI (@apidevtools/swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('lists every route the app registers, except itself and the web app’s pages', () => {
    const documented = new Set(operations().map((o) => o.key));
    const api = routes.filter(
      (r) => r.method !== 'HEAD' && (r.url.startsWith('/api/') || r.url === STOMP_PATH) && r.url !== '/api/docs/json',
    );
    expect(api.length).toBeGreaterThan(300);
    expect(api.map((r) => `${r.method} ${docPath(r.url)}`).filter((k) => !documented.has(k))).toEqual([]);
  });

  it('gives every operation tags, a summary and a described answer', () => {
    const lacking = operations().flatMap(({ key, op }) => {
      const answers = Object.entries(op.responses ?? {}).filter(
        ([code, r]) => /^(2|3|101)/.test(code) && (r.content !== undefined || r.description !== 'Default Response'),
      );
      const missing = [!op.tags?.length && 'tags', !op.summary && 'summary', !answers.length && 'answer'].filter(
        Boolean,
      );
      return missing.length ? [`${key}: ${missing.join(', ')}`] : [];
    });
    expect(lacking).toEqual([]);
  });

  it('describes the sign-in routes with their bodies', () => {
    const signIn = [
      'POST /api/auth-payload',
      'POST /api/o/token/',
      'POST /api/logout',
      'GET /api/key-for-login-sign',
      'POST /api/auth/set-password',
      'POST /api/auth/change-password',
      'GET /api/auth/profile',
      'GET /api/auth/methods',
      'POST /api/auth/forgot-password/send-code',
      'POST /api/auth/forgot-password/reset',
      'GET /api/product-auth/auth/oneid/login',
      'GET /api/product-auth/auth/oneid/redirectUri',
    ];
    const byKey = new Map(operations().map((o) => [o.key, o.op]));
    for (const key of signIn) {
      expect(byKey.has(key), key).toBe(true);
      if (key.startsWith('POST'))
        expect(byKey.get(key)!.requestBody?.content['application/json']?.schema?.properties, key).toBeDefined();
    }
    expect(
      Object.keys(byKey.get('POST /api/auth-payload')!.requestBody!.content['application/json']!.schema!.properties!),
    ).toEqual(expect.arrayContaining(['username', 'password']));
  });

  it('describes multipart bodies: the public submission’s data and files, the uploads’ files', () => {
    const multipart = (key: string) => {
      const op = operations().find((o) => o.key === key)?.op;
      return op?.requestBody?.content['multipart/form-data']?.schema?.properties;
    };
    expect(Object.keys(multipart('POST /api/outer-cabinet/send-appeal') ?? {})).toEqual(
      expect.arrayContaining(['data', 'files']),
    );
    expect(Object.keys(multipart('POST /api/file-entity/save/{kind}') ?? {})).toEqual(['files']);
    for (const key of [
      'POST /api/file-entity/save/{route}/for-profile',
      'POST /api/chat-message/sendMessage',
      'POST /api/groupChat/chat-message/sendMessage',
      'POST /api/chat-message/reply-message',
      'POST /api/groupChat/uploadPhoto',
    ]) {
      expect(multipart(key), key).toBeDefined();
    }
  });

  it('names the live socket: STOMP over WebSocket, with a documented entry that a plain GET answers 426', async () => {
    expect(doc['x-live-socket']).toMatchObject({ path: STOMP_PATH, protocol: expect.stringContaining('STOMP') });
    expect(doc.info.description).toContain(STOMP_PATH);
    expect(doc.paths[STOMP_PATH]?.get?.responses?.['101']).toBeDefined();
    const res = await app.inject({ method: 'GET', url: STOMP_PATH, headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(426);
    expect(res.headers.upgrade).toBe('websocket');
    expect(res.json().message).toMatch(/WebSocket/);
  });
});
