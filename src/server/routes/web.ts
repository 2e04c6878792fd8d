import type { FastifyPluginAsync } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../shared/locales.ts';

/** The cookie the client sets with its interface language (src/app/i18n.ts `LOCALE_COOKIE`). */
const LOCALE_COOKIE = 'portal.locale';

/** The visitor's language from the cookie the client keeps, else the default. */
export function cookieLocale(header: string | undefined): Locale {
  for (const part of header?.split(';') ?? []) {
    const [name, value] = part.trim().split('=');
    if (name === LOCALE_COOKIE && (LOCALES as readonly string[]).includes(value ?? '')) return value as Locale;
  }
  return DEFAULT_LOCALE;
}

/**
 * The public routes the build prerendered (`dist/web/prerendered/routes.json`, see
 * scripts/prerender.ts) get their page in the visitor's language (cookie `portal.locale`,
 * else the default) instead of the empty index.html, so the page paints before its
 * JavaScript runs; every other path keeps the index.html fallback (services/web-app.ts).
 */
const web: FastifyPluginAsync = async (app) => {
  const root = app.webAppRoot;
  if (!root) return;
  const routesFile = path.join(root, 'prerendered/routes.json');
  const prerendered = existsSync(routesFile)
    ? (JSON.parse(readFileSync(routesFile, 'utf8')) as Record<string, string>)
    : {};
  for (const [route, page] of Object.entries(prerendered)) {
    app.get(route, { schema: { hide: true } }, (request, reply) =>
      reply
        .header('cache-control', 'no-cache')
        .header('vary', 'Cookie, Accept-Encoding')
        .type('text/html')
        .sendFile(`prerendered/${cookieLocale(request.headers.cookie)}/${page}.html`),
    );
  }
};

export default web;
