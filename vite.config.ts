import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { localeFilePaths, readLocales } from './src/definitions/locale-files.ts';
import { LOCALES, type Locale } from './src/shared/locales.ts';
import { formValidators } from './scripts/form-validators.ts';
import { SCREEN_INDEX_QUERY, screenEntry } from './src/definitions/screen-index.ts';
import type { ScreenDefinition } from './src/generated/meta.ts';

/**
 * Manifests are bundled eagerly (every route and menu needs them), screens with their routes,
 * but their `description` is prose for analysts that no screen shows: dropped from the client
 * bundle so the first visit does not grow with each documented definition (the screens' index
 * entries: {@link screenIndex}). The server reads the files themselves and keeps it.
 */
function stripDefinitionDescriptions(): Plugin {
  const eager = /\/(schemas\/[a-z][a-z0-9-]*\/entity|screens\/[a-z][a-z0-9-]*)\.json$/;
  return {
    name: 'strip-definition-descriptions',
    enforce: 'pre',
    transform(code, id) {
      const [file, query] = id.split('?');
      if (!eager.test(file!) || isScreenIndex(query)) return null;
      return jsonModule(withoutProse(JSON.parse(code) as Record<string, unknown>));
    },
  };
}

/** A definition without `description` and `$schema` (the editor's pointer to the meta-schema, read by no screen). */
const withoutProse = ({ description: _prose, $schema: _meta, ...rest }: Record<string, unknown>) => rest;

const isScreenIndex = (query: string | undefined) => new URLSearchParams(query ?? '').has(SCREEN_INDEX_QUERY);

/**
 * `screens/<id>.json?index`: a screen's entry in the screens' index (src/definitions/client.ts,
 * src/definitions/screen-index.ts), without the options only its own route reads and without
 * prose. In the build and in the tests: a query Vite does not know would otherwise leave the
 * file's JSON to be read as JavaScript.
 */
export function screenIndex(): Plugin {
  const screenFile = /\/screens\/[a-z][a-z0-9-]*\.json$/;
  return {
    name: 'screen-index',
    enforce: 'pre',
    transform(code, id) {
      const [file, query] = id.split('?');
      if (!screenFile.test(file!) || !isScreenIndex(query)) return null;
      return jsonModule(screenEntry(withoutProse(JSON.parse(code)) as unknown as ScreenDefinition));
    },
  };
}

/**
 * A value as a module of JSON.parse of a string (see `json.stringify` below): the bundler would
 * otherwise read a plugin's JSON output as a JSON module of its own and emit object literals.
 */
function jsonModule(value: unknown) {
  return {
    code: `export default JSON.parse(${JSON.stringify(JSON.stringify(value))})`,
    moduleType: 'js',
    map: null,
  };
}

/**
 * The interface texts as one tree per locale. `src/i18n/locales/<locale>.json` holds only the
 * shell and engine texts; every entity's labels are in `schemas/<id>/i18n.json` and every
 * machine's in `workflows/<machine>.i18n.json`. Importing a shell file (the app's locale
 * chunks, tests) gives the whole locale, merged by the same function as the server's and
 * `npm run check`'s (src/definitions/locales.ts); a text written twice fails the build. No
 * merged copy is written anywhere. In dev, editing any of these files reloads the page.
 *
 * Top-level sections that only an on-demand chunk shows (the password meter's words) leave
 * the locale chunks: a first visit loads a whole locale, and these words are read by few.
 * `<locale>.json?section=<name>` is `{<name>: …}` alone, for the chunk that shows them
 * (engine/common/useLocaleSection.ts).
 */
const LAZY_LOCALE_SECTIONS: readonly string[] = ['passwordPolicy'];
export function mergedLocales(): Plugin {
  const localeFile = /\/src\/i18n\/locales\/([A-Za-z]+)\.json$/;
  const textFile =
    /\/(src\/i18n\/locales\/[A-Za-z]+|schemas\/[a-z][a-z0-9-]*\/i18n|workflows\/[a-z][a-z0-9-]*\.i18n)\.json$/;
  let root = process.cwd();
  return {
    name: 'merged-locales',
    enforce: 'pre',
    configResolved(config) {
      root = config.root;
    },
    transform(_code, id) {
      const [file, query] = id.split('?');
      const locale = localeFile.exec(file!)?.[1];
      if (!locale || !(LOCALES as readonly string[]).includes(locale)) return null;
      const merged = readLocales(root);
      if (merged.problems.length)
        this.error(
          `the interface texts do not merge:\n${merged.problems.map((p) => `${p.file}#${p.pointer || '/'}: ${p.message}`).join('\n')}`,
        );
      for (const text of localeFilePaths(root)) this.addWatchFile(path.join(root, text));
      const texts = merged.locales[locale as Locale];
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
    configureServer(server) {
      // A text file changed, appeared or went: every locale module is stale; the page reloads
      // (i18next holds the texts it loaded at start, so a hot update would not show).
      const changed = (file: string) => {
        if (!textFile.test(file)) return;
        for (const environment of Object.values(server.environments))
          for (const mod of environment.moduleGraph.idToModuleMap.values())
            if (localeFile.test(mod.id?.split('?')[0] ?? '')) environment.moduleGraph.invalidateModule(mod);
        server.ws.send({ type: 'full-reload' });
      };
      // The root is watched already (a glob added here would not be: chokidar takes paths).
      for (const event of ['change', 'add', 'unlink'] as const) server.watcher.on(event, changed);
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
 * React Router 7 exports only its development build: the same code as the production build it
 * ships beside it, but with ENABLE_DEV_WARNINGS on — warnings in a visitor's console and their
 * strings in every route's bundle (remix-run/react-router#14102). The build takes the production
 * files; `vite` in development keeps the warnings. Left alone when a release moves the files.
 */
export function productionReactRouter(): Plugin {
  return {
    name: 'production-react-router',
    config(config, { command }) {
      const dist = path.resolve(config.root ?? '.', 'node_modules/react-router/dist/production');
      if (command !== 'build' || !existsSync(path.join(dist, 'index.mjs'))) return;
      return {
        resolve: {
          alias: [
            { find: /^react-router$/, replacement: path.join(dist, 'index.mjs') },
            { find: /^react-router\/dom$/, replacement: path.join(dist, 'dom-export.mjs') },
          ],
        },
      };
    },
  };
}

/**
 * @rjsf/core's import of markdown-to-jsx, in the web app's client build, goes to
 * src/engine/form/LazyMarkdown.tsx, which loads the parser when a text needs it (it says when
 * that is). The prerender's server build keeps the import as it is.
 */
function lazyRjsfMarkdown(): Plugin {
  const lazyModule = path.resolve(import.meta.dirname, 'src/engine/form/LazyMarkdown.tsx');
  return {
    name: 'lazy-rjsf-markdown',
    enforce: 'pre',
    apply: 'build',
    resolveId(source, importer, options) {
      if (options.ssr || source !== 'markdown-to-jsx/react') return null;
      return importer?.includes('/node_modules/@rjsf/core/') ? lazyModule : null;
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
  // formValidators after stripDefinitionDescriptions: it reads the definition file itself.
  plugins: [
    productionReactRouter(),
    lazyRjsfMarkdown(),
    stripDefinitionDescriptions(),
    screenIndex(),
    mergedLocales(),
    formValidators(),
    react(),
    precompress(),
  ],
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
