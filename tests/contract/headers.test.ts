/**
 * The browser security headers (docs/security.md "Security headers") on every kind of reply: HTML pages
 * (prerendered and the index.html fallback), API replies, downloads and assets. Private API
 * replies are never stored by a cache; public reference data may be, for signed-out callers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { findFileFields } from '../../src/server/store/record-schema.ts';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { PNG, multipart } from '../support/multipart.ts';

const web = path.join(REPO_ROOT, 'dist/web');
const built = existsSync(path.join(web, 'index.html'));
if (!built) console.warn('[tests] the HTML page header tests are SKIPPED: dist/web is missing (npm run build)');

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
// Any entity with a top-level file field: the download route is the same for all.
const fileEntity = [...registry.entities.values()].find((d) =>
  findFileFields(d.schema).some((f) => f.path.length <= 2),
)!;
const referenceKind = [...registry.references.keys()][0]!;
const anon = { authorization: '' };

/** The CSP header as directive → sources. */
function cspOf(res: LightMyRequestResponse): Record<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(header, `no CSP on ${res.statusCode} ${res.headers['content-type']}`).toBeTypeOf('string');
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** The executable inline scripts of a page (JSON data blocks are never run, so CSP does not apply). */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs]) => !/\bsrc=/.test(attrs!) && !/type="application\/(ld\+)?json"/.test(attrs!))
    .map(([, , body]) => body!);
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The headers every reply carries, whatever it is. */
function expectBrowserHeaders(res: LightMyRequestResponse): void {
  const csp = cspOf(res);
  expect(csp['default-src']).toEqual(["'self'"]);
  expect(csp['script-src']).toContain("'self'");
  expect(csp['script-src']).not.toContain("'unsafe-inline'");
  expect(csp['script-src-attr']).toEqual(["'none'"]);
  expect(csp['object-src']).toEqual(["'none'"]);
  expect(csp['base-uri']).toEqual(["'self'"]);
  expect(csp['form-action']).toEqual(["'self'"]);
  expect(csp['frame-ancestors']).toEqual(["'none'"]);
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  const permissions = String(res.headers['permissions-policy']);
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb'])
    expect(permissions).toContain(`${feature}=()`);
  // Plain HTTP here: HSTS would be ignored by browsers and wrong behind a TLS-less setup.
  expect(res.headers['strict-transport-security']).toBeUndefined();
}

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`security headers on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
    });
    afterAll(async () => close?.());

    it.skipIf(!built)(
      'HTML pages: the policy allows exactly the inline scripts the page carries, by hash',
      async () => {
        const routes = JSON.parse(readFileSync(path.join(web, 'prerendered/routes.json'), 'utf8')) as Record<
          string,
          string
        >;
        // Every prerendered route in every language (the cookie picks it), and the index.html fallback.
        const pages = [
          ...Object.keys(routes).flatMap((r) =>
            ['en', 'ru', 'uz', 'uzCyrillic'].map((l) => [r, `portal.locale=${l}`] as const),
          ),
          ['/admin/appeals', ''] as const,
        ];
        let hashed = 0;
        for (const [url, cookie] of pages) {
          const res = await app.inject({ method: 'GET', url, headers: { ...anon, cookie } });
          expect(res.statusCode, url).toBe(200);
          expect(res.headers['content-type']).toMatch(/text\/html/);
          expectBrowserHeaders(res);
          const scriptSrc = cspOf(res)['script-src']!;
          for (const script of inlineScripts(res.body)) {
            expect(scriptSrc, `${url} ${cookie}: ${script.slice(0, 80)}`).toContain(sha256(script));
            hashed++;
          }
        }
        // The prerendered pages do carry inline scripts (the guard and the loader).
        expect(hashed).toBeGreaterThan(0);
      },
    );

    it('API replies: every one is no-store — sign-in, token refresh, profile, records, errors, the OneID callback', async () => {
      const session = await app.inject({
        method: 'POST',
        url: '/api/auth-payload',
        payload: { username: 'admin', password: 'test-admin-password' },
        headers: anon,
      });
      expect(session.statusCode).toBe(200);
      const refreshed = await app.inject({
        method: 'POST',
        url: '/api/o/token/',
        payload: { grant_type: 'refresh_token', refresh_token: session.json().refreshToken },
        headers: anon,
      });
      expect(refreshed.statusCode).toBe(200);
      const replies = [
        session,
        refreshed,
        await app.inject({
          method: 'POST',
          url: '/api/auth-payload',
          payload: { username: 'admin', password: 'wrong-password' },
          headers: anon,
        }),
        await app.inject({ method: 'GET', url: '/api/auth/profile' }),
        await app.inject({ method: 'POST', url: `/api${fileEntity.manifest.base}/list-search`, payload: {} }),
        await app.inject({ method: 'GET', url: `/api${fileEntity.manifest.base}/get/1` }),
        await app.inject({
          method: 'GET',
          url: '/api/product-auth/auth/oneid/redirectUri?code=x&state=y',
          headers: anon,
        }),
        await app.inject({ method: 'GET', url: '/api/health' }),
        await app.inject({ method: 'GET', url: '/api/no-such-thing' }),
        // Reference data asked for by a signed-in caller: their reply is theirs alone.
        await app.inject({ method: 'GET', url: `/api/reference/${referenceKind}` }),
      ];
      for (const res of replies) {
        expect(res.headers['cache-control'], `${res.statusCode} ${res.body.slice(0, 80)}`).toBe('no-store');
        expectBrowserHeaders(res);
      }
    });

    it('public reference data may be cached for signed-out callers, per language', async () => {
      for (const url of [`/api/reference/${referenceKind}`, '/api/open-data', '/api/docs/json', '/api/auth/methods']) {
        const res = await app.inject({ method: 'GET', url, headers: anon });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toMatch(/^public, max-age=\d+$/);
        expect(res.headers.vary, url).toMatch(/accept-language/i);
        expectBrowserHeaders(res);
      }
      // Not found is not data: nothing to keep.
      const missing = await app.inject({ method: 'GET', url: '/api/reference/no-such-list', headers: anon });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['cache-control']).toBe('no-store');
    });

    it('downloads: a stored file and an open-data file are no-store, nosniff, under the policy', async () => {
      const { payload, headers } = multipart([{ name: 'photo.png', type: 'image/png', content: PNG }]);
      const uploaded = await app.inject({
        method: 'POST',
        url: `/api/file-entity/save/${fileEntity.id}`,
        payload,
        headers,
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const file = await app.inject({ method: 'GET', url: `/api/file-entity/get/${uploaded.json().list[0].id}` });
      expect(file.statusCode).toBe(200);
      expect(file.headers['cache-control']).toBe('no-store');
      expectBrowserHeaders(file);

      const catalogue = await app.inject({ method: 'GET', url: '/api/open-data', headers: anon });
      const csv = await app.inject({ method: 'GET', url: catalogue.json().list[0].csvUrl, headers: anon });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['cache-control']).toBe('no-store');
      expectBrowserHeaders(csv);
    });

    it.skipIf(!built)('hashed assets keep their year-long cache and carry nosniff', async () => {
      const entry = /<script type="module"[^>]*src="([^"]+)"/.exec(
        readFileSync(path.join(web, 'index.html'), 'utf8'),
      )![1]!;
      const res = await app.inject({ method: 'GET', url: entry, headers: anon });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  });
}

describe('HSTS only over TLS', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // Behind one trusted balancer (TRUST_PROXY=1): its X-Forwarded-Proto tells the scheme.
    ({ app, close } = await startTestApp('pglite', { trustProxy: 1 }));
  });
  afterAll(async () => close?.());

  it('sends Strict-Transport-Security when the visitor came over https, and not over http', async () => {
    const tls = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000');
    const plain = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('does not believe X-Forwarded-Proto from a caller that is not a trusted proxy', async () => {
    const direct = await startTestApp('pglite');
    try {
      const res = await direct.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await direct.close();
    }
  });
});
