import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
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
 * Serves the built web app (`npm run build` → dist/web) from the API's port: hashed assets
 * (precompressed brotli/gzip) with a long cache, and index.html for every other GET outside /api so the client router
 * can take the path (history mode). Without a build, only the API is served.
 *
 * The public routes the build prerendered (`dist/web/prerendered/routes.json`, see
 * scripts/prerender.ts) get their page in the visitor's language (cookie `portal.locale`,
 * else the default) instead of the empty index.html, so the page paints before its
 * JavaScript runs; every other path keeps the index.html fallback.
 */
export default fp(
  async (app) => {
    const root = path.join(app.config.root, 'dist/web');
    if (!existsSync(path.join(root, 'index.html'))) {
      app.log.warn('dist/web is missing: run `npm run build` to serve the web app');
      return;
    }
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each asset (vite.config.ts `precompress`); sent as
      // the request's Accept-Encoding allows, with `Vary: Accept-Encoding`.
      preCompressed: true,
      setHeaders(reply, file) {
        reply.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.decorate('webAppRoot', root);

    const routesFile = path.join(root, 'prerendered/routes.json');
    const prerendered = existsSync(routesFile) ? (JSON.parse(readFileSync(routesFile, 'utf8')) as Record<string, string>) : {};
    for (const [route, page] of Object.entries(prerendered)) {
      app.get(route, { schema: { hide: true } }, (request, reply) =>
        reply
          .header('cache-control', 'no-cache')
          .header('vary', 'Cookie, Accept-Encoding')
          .type('text/html')
          .sendFile(`prerendered/${cookieLocale(request.headers.cookie)}/${page}.html`));
    }
  },
  { name: 'web', dependencies: ['http'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when the built web app is served. */
    webAppRoot?: string;
  }
}
