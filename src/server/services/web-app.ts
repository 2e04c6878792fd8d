import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import path from 'node:path';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when the built web app is served. */
    webAppRoot?: string;
  }
}

/**
 * Serves the built web app (`npm run build` → dist/web) from the API's port: hashed assets
 * (precompressed brotli/gzip) with a long cache, and — through the not-found handler of
 * services/http.ts — index.html for every other GET outside /api, so the client router can
 * take the path (history mode). The prerendered public pages are routes/web.ts. Without a
 * build, only the API is served.
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
        reply.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    app.decorate('webAppRoot', root);
  },
  { name: 'web-app', dependencies: ['http'] },
);
