import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../../src/server/app.ts';
import { startTestApp } from '../support/app.ts';

const web = path.join(REPO_ROOT, 'dist/web');
const built = existsSync(path.join(web, 'index.html'));
if (!built) console.warn('[tests] web serving tests are SKIPPED: dist/web is missing (npm run build)');

/** The entry script the built index.html loads. */
const entryScript = (): string => /<script type="module"[^>]*src="([^"]+)"/.exec(readFileSync(path.join(web, 'index.html'), 'utf8'))![1]!;

describe.skipIf(!built)('the built web app as served', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, close } = await startTestApp('pglite'));
  });
  afterAll(async () => close?.());

  it('sends hashed assets brotli- or gzip-compressed as the browser accepts, cached for a year, the same bytes as the file', async () => {
    const url = entryScript();
    const original = readFileSync(path.join(web, url));
    const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(original.length);

    const gz = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(original)).toBe(true);

    const plain = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original)).toBe(true);
  });

  it('answers every client route with index.html (compressed too), never cached, and leaves the API alone', async () => {
    const html = readFileSync(path.join(web, 'index.html'));
    for (const route of ['/', '/murojaat']) {
      const res = await app.inject({ method: 'GET', url: route, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      const body = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload) : res.rawPayload;
      expect(body.equals(html)).toBe(true);
    }
    const api = await app.inject({ method: 'GET', url: '/api/no-such-thing', headers: { 'accept-encoding': 'br' } });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/json/);
  });
});
