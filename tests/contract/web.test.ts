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
const entryScript = (): string =>
  /<script type="module"[^>]*src="([^"]+)"/.exec(readFileSync(path.join(web, 'index.html'), 'utf8'))![1]!;

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

  it('answers every client route that was not prerendered with index.html (compressed too), never cached, and leaves the API alone', async () => {
    const html = readFileSync(path.join(web, 'index.html'));
    // Not prerendered: a staff list, no screen at all, and a signed-in user's own screen.
    for (const route of ['/reload', '/no-such-page', '/admin/appeals', '/cabinet/appeals']) {
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

  it('answers a prerendered public route with its page in the language of the portal.locale cookie, else the default', async () => {
    const routes = JSON.parse(readFileSync(path.join(web, 'prerendered/routes.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(routes).toMatchObject({ '/': 'index', '/murojaat': 'murojaat' });
    const page = (locale: string, route: string) =>
      readFileSync(path.join(web, 'prerendered', locale, `${routes[route]}.html`));
    const cases: Array<[string, string | undefined, string]> = [
      ['/', undefined, 'uzCyrillic'],
      ['/', 'portal.locale=en', 'en'],
      ['/murojaat', 'theme=dark; portal.locale=ru', 'ru'],
      ['/murojaat?draft=abc', 'portal.locale=uz', 'uz'],
      ['/', 'portal.locale=klingon', 'uzCyrillic'],
    ];
    for (const [url, cookie, locale] of cases) {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/cookie/i);
      const body = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload) : res.rawPayload;
      expect(body.equals(page(locale, url.split('?')[0]!))).toBe(true);
      expect(body.toString()).toContain(`data-prerendered="${locale} ${url.split('?')[0]}"`);
    }
    // The page is the app's own markup: the English home page says what the English locale says.
    const en = page('en', '/').toString();
    const messages = JSON.parse(readFileSync(path.join(REPO_ROOT, 'src/i18n/locales/en.json'), 'utf8')) as {
      app: { shortTitle: string };
    };
    expect(en).toContain('<html lang="en">');
    expect(en).toContain(`${messages.app.shortTitle}</title>`);
    expect(en).toContain('data-region="header"');
  });
});
