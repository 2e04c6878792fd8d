import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

/**
 * Manifests and screens are bundled eagerly (every route and menu needs them), but their
 * `description` is prose for analysts that no screen shows: dropped from the client bundle so
 * the first visit does not grow with each documented definition. The server reads the files
 * themselves and keeps it.
 */
function stripDefinitionDescriptions(): Plugin {
  const eager = /\/(schemas\/[a-z][a-z0-9-]*\/entity|screens\/[a-z][a-z0-9-]*)\.json$/;
  return {
    name: 'strip-definition-descriptions',
    enforce: 'pre',
    transform(code, id) {
      if (!eager.test(id.split('?')[0]!)) return null;
      const { description: _prose, ...rest } = JSON.parse(code) as Record<string, unknown>;
      // As JSON.parse of a string (see `json.stringify` below): the bundler would otherwise read
      // this plugin's JSON output as a JSON module of its own and emit object literals.
      return {
        code: `export default JSON.parse(${JSON.stringify(JSON.stringify(rest))})`,
        moduleType: 'js',
        map: null,
      };
    },
  };
}

/**
 * Top-level sections of the interface texts that only an on-demand chunk shows (the password
 * meter's words): a first visit loads a whole locale file, and these words are read by few.
 * They leave the locale files' own chunks; `<locale>.json?section=<name>` is `{<name>: …}`
 * alone, for the chunk that shows them (engine/common/useLocaleSection.ts). The server and
 * `npm run check` read the files whole.
 */
const LAZY_LOCALE_SECTIONS: readonly string[] = ['passwordPolicy'];
function lazyLocaleSections(): Plugin {
  const localeFile = /\/src\/i18n\/locales\/[A-Za-z]+\.json$/;
  return {
    name: 'lazy-locale-sections',
    enforce: 'pre',
    transform(code, id) {
      const [file, query] = id.split('?');
      if (!localeFile.test(file!)) return null;
      const texts = JSON.parse(code) as Record<string, unknown>;
      const section = new URLSearchParams(query ?? '').get('section');
      const kept = section
        ? { [section]: texts[section] }
        : Object.fromEntries(Object.entries(texts).filter(([key]) => !LAZY_LOCALE_SECTIONS.includes(key)));
      return {
        code: `export default JSON.parse(${JSON.stringify(JSON.stringify(kept))})`,
        moduleType: 'js',
        map: null,
      };
    },
  };
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset of the build, once, at build
 * time: the server sends them as they are (`@fastify/static` `preCompressed`), so a visitor
 * on a slow mobile link downloads about a quarter of the bytes and the server spends no CPU
 * compressing per request (brotli at its best level is too slow to do on the fly).
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let outDir = '';
  let root = '';
  let ssr = false;
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    async closeBundle() {
      // The prerender's own (SSR) build is not served: nothing to prerender or compress.
      if (ssr) return;
      // Public routes' HTML first (scripts/prerender.ts), so it is compressed with the rest.
      const { prerenderInto } = await import('./scripts/prerender.ts');
      await prerenderInto(root, outDir);
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((f) => f.isFile() && /\.(js|css|html|svg|json|txt)$/.test(f.name) && !f.parentPath.includes('.vite'))
        .map((f) => path.join(f.parentPath, f.name));
      await Promise.all(
        files.map(async (file) => {
          const data = await readFile(file);
          if (data.length < 1024) return;
          await writeFile(
            `${file}.br`,
            await brotli(data, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
            }),
          );
          await writeFile(`${file}.gz`, await gz(data, { level: 9 }));
        }),
      );
    },
  };
}

/**
 * The web app's build: `index.html` → `dist/web`, served by the API server on the same
 * port. Every route is a lazy chunk; ag-grid, rjsf and apexcharts land only in the chunks
 * of the screen kinds that use them. The public routes are then prerendered into
 * `dist/web/prerendered` (scripts/prerender.ts) and everything is precompressed.
 */
export default defineConfig({
  plugins: [stripDefinitionDescriptions(), lazyLocaleSections(), react(), precompress()],
  // Every JSON import (definitions, locales) as JSON.parse of a string: V8 reads that far faster
  // than the same data as a JavaScript object literal, on a phone's first visit too.
  json: { stringify: true },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 2000,
    modulePreload: {
      // The app's second graph (src/app/boot.tsx) is announced by the page itself — index.html's
      // modulepreload links, or a prerendered page a few per task (scripts/prerender.ts) — so
      // main.tsx's import of it adds none: ~35 links at once are a long task on a phone.
      resolveDependencies: (url, deps) => (/(^|\/)boot-[^/]*\.js$/.test(url) ? [] : deps),
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:8080', '/gs-guide-websocket': { target: 'ws://localhost:8080', ws: true } },
  },
});
