/**
 * The build's prerender step (run by vite.config.ts after the client build, before
 * precompression): bundles src/app/prerender.tsx with vite's SSR build, renders every public
 * parameterless route in every locale — with the data its screen asks for, answered by the
 * portal's own server started for the build (scripts/prerender-api.ts) — and writes each page
 * beside index.html as `prerendered/<locale>/<page>.html` (+ `prerendered/routes.json`,
 * route → page), which the server (src/server/routes/web.ts) sends for that route in the
 * visitor's language.
 *
 * The page is index.html with the rendered markup inside `#root` (marked
 * `data-prerendered`), Fluent's style elements in the head, the route's title and the query
 * data it was rendered from (for the browser to start from the same); the browser entry then
 * adopts it (main.tsx). A page with form fields is shown at once but cannot be typed into
 * until the app has adopted it (its main region is `inert`). It stands for a signed-out first
 * visit with default settings: a tiny inline script empties it before the first paint when
 * this browser is signed in, chose another language or another menu layout, so nobody sees a
 * page that is not theirs.
 *
 * The pages' inline scripts are the same on every page of a build, and their hashes are
 * written to `csp-script-hashes.json` beside index.html: the server's Content-Security-Policy
 * allows exactly those (src/server/security/policy.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { LOCALES, type Locale } from '../src/shared/locales.ts';
import type { PrerenderedPage } from '../src/app/prerender.tsx';
import { PRERENDER_DATA_ID } from '../src/app/prerendered.ts';
import { SCRIPT_HASHES_FILE } from '../src/server/security/policy.ts';

/** The file name of a route's page: `/` → `index`, `/a/b` → `a~b`. */
export const pageName = (route: string): string => (route === '/' ? 'index' : route.slice(1).replace(/\//g, '~'));

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Clears the prerendered page before it paints when it is not this visitor's: signed in,
 * another language, or a menu layout other than the default (settings.ts keys, JSON values).
 * It also records a language chosen on the page before the app runs (the select works without
 * JavaScript of ours) where the app looks for it (settings.ts and the server's cookie): the app
 * then starts in it, whatever moment of its start the choice fell in.
 *
 * The same text on every page (the page's language is read from `data-prerendered`), so the
 * Content-Security-Policy allows it by one hash (see `inlineScriptHashes`).
 */
const GUARD =
  `<script>(function(){try{var g=function(k){return JSON.parse(localStorage.getItem('portal.'+k))},l=g('locale'),r=document.getElementById('root'),p=r.getAttribute('data-prerendered').split(' ')[0];` +
  `if(g('accessToken')||(l&&l!==p)||g('sidebarOpen')===false||g('menuCondensed')===true){` +
  `r.innerHTML='';r.removeAttribute('data-prerendered')}` +
  `document.addEventListener('change',function(e){var t=e.target;if(t&&t.matches&&t.matches('select[data-action="language"]')){` +
  `try{localStorage.setItem('portal.locale',JSON.stringify(t.value))}catch(x){}` +
  `document.cookie='portal.locale='+encodeURIComponent(t.value)+'; path=/; max-age=31536000; samesite=lax'}},true)}catch(e){}})()</script>`;

// The server cannot know the viewport: the menu is rendered open (the desktop default) and
// hidden here on a phone, where the app starts with the drawer closed.
const PHONE_MENU =
  '<style>@media (max-width: 767px){#root[data-prerendered] [data-region="menu"],#root[data-prerendered] [data-region="menu-backdrop"]{display:none}}</style>';

/** JSON that may stand inside a `<script>` element (no `</script>` or `<!--` can form). */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/** The id of the JSON list of chunks the loader announces (`afterFirstPaint`). */
const CHUNKS_ID = 'prerender-chunks';

/** Chunks a prerendered page announces as `modulepreload` links per task (each costs a phone several ms). */
const PRELOADS_PER_TASK = 1;

/**
 * The page's scripts start after its first contentful paint: the HTML is the page, so the
 * browser paints it first and then fetches the app instead of letting ~35 high-priority
 * script downloads compete with that paint. The app's chunks — its start graph and the
 * route's screen kind (`extra`) — are announced as `modulepreload` links a few per task, so
 * that announcing them is no long task either (Lighthouse TBT); vite's own preloading of the
 * kind then finds them present.
 */
export function afterFirstPaint(template: string, extra: readonly string[] = []): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(template);
  if (!entry) throw new Error('index.html has no module entry script');
  const preloads = [...template.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
  let html = template.replace(entry[0], '');
  for (const p of preloads) html = html.replace(p[0], '');
  const files = scriptJson([...new Set([...preloads.map((p) => p[1]), ...extra])]);
  // After the first contentful paint (Paint Timing), else after the first frame; at once when
  // the guard emptied the page (nothing to paint first); in any case within 3 s. The chunk list
  // is data beside it, so that the script is the same on every page of a build (one hash in
  // the Content-Security-Policy).
  const loader =
    `<script type="application/json" id="${CHUNKS_ID}">${files}</script>` +
    `<script type="module">let s=0,i=0;const f=JSON.parse(document.getElementById(${JSON.stringify(CHUNKS_ID)}).textContent),c=new MessageChannel(),add=()=>{for(const h of f.slice(i,i+=${PRELOADS_PER_TASK})){const l=document.createElement('link');` +
    `l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.append(l)}if(i<f.length)c.port2.postMessage(0)};c.port1.onmessage=add;` +
    `const go=()=>{if(s++)return;import(${JSON.stringify(entry[1])});add()};` +
    `if(!document.getElementById('root').hasAttribute('data-prerendered'))go();setTimeout(go,3000);` +
    `if(PerformanceObserver.supportedEntryTypes?.includes('paint'))new PerformanceObserver((l,o)=>{if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();setTimeout(go)}}).observe({type:'paint',buffered:true});` +
    `else requestAnimationFrame(()=>setTimeout(go))</script>`;
  return html.replace('</body>', `${loader}</body>`);
}

/** Form fields in the page's main region (the header's language switch is the shell's). */
export const hasFields = (html: string): boolean =>
  /<(input|select|textarea)\b/.test(html.split('data-region="main"')[1] ?? '');

/**
 * index.html with one prerendered page in it. A page with form fields is shown at once but
 * its main region is `inert` until the app has adopted the screen (ScreenRoute): what a
 * visitor typed into the static page would be lost, so nothing can be typed there yet.
 */
export function pageHtml(
  template: string,
  page: PrerenderedPage,
  locale: Locale,
  route: string,
  chunks: readonly string[] = [],
): string {
  const markup = hasFields(page.html)
    ? page.html.replace('data-region="main"', 'data-region="main" inert=""')
    : page.html;
  return afterFirstPaint(template, chunks)
    .replace(/<html lang="[^"]*">/, `<html lang="${page.lang}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace('</head>', `${page.styles}${PHONE_MENU}</head>`)
    .replace(
      '<div id="root"></div>',
      `<div id="root" data-prerendered="${escapeHtml(`${locale} ${route}`)}">${markup}</div>${GUARD}` +
        `<script type="application/json" id="${PRERENDER_DATA_ID}">${scriptJson(page.data)}</script>`,
    );
}

/**
 * The CSP source expressions (`'sha256-…'`) of the scripts a page runs inline: every
 * `<script>` without `src` whose type is JavaScript. JSON data blocks are never run, so the
 * policy does not apply to them and they need none.
 * @example inlineScriptHashes('<script>go()</script>') // ["'sha256-…'"]
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attrs = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attrs)) continue;
    const type = /\btype\s*=\s*"([^"]*)"/i.exec(attrs)?.[1]?.toLowerCase() ?? '';
    if (!['', 'module', 'text/javascript', 'application/javascript'].includes(type)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/**
 * Starts the build's API server (scripts/prerender-api.ts) and answers with a fetch for the
 * app's relative API paths against it, and a stop.
 */
async function startPrerenderApi(root: string): Promise<{ apiFetch: typeof fetch; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/prerender-api.ts')],
    {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, DATABASE_URL: '' },
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      try {
        resolve((JSON.parse(line) as { url: string }).url);
      } catch {
        reject(new Error(`prerender API server: ${line}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`the prerender API server exited (${code})`)));
  });
  const apiFetch: typeof fetch = (input, init) =>
    fetch(typeof input === 'string' && input.startsWith('/') ? `${url}${input}` : input, init);
  return {
    apiFetch,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

/** The files of a manifest chunk and everything it imports statically. */
function chunkClosure(manifest: Record<string, ManifestChunk>, key: string, files = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imp of chunk.imports ?? []) chunkClosure(manifest, imp, files);
  return files;
}

/**
 * The chunks of a screen kind (`src/engine/<kind>/…Screen.tsx`, loaded by the engine's
 * registry), as URLs — with the small entry chunks of the libraries the registry evaluates
 * before it (any dynamic entry whose chunks all belong to the kind), which the browser would
 * otherwise fetch one round trip after another.
 */
export function kindChunks(
  manifest: Record<string, ManifestChunk & { isDynamicEntry?: boolean }>,
  kind: string,
): string[] {
  const key = Object.keys(manifest).find((k) => k.startsWith(`src/engine/${kind}/`) && /Screen\.tsx$/.test(k));
  if (!key) return [];
  const own = chunkClosure(manifest, key);
  const withBoot = chunkClosure(manifest, 'src/app/boot.tsx', new Set(own));
  const stages = Object.keys(manifest)
    .filter((k) => manifest[k]!.isDynamicEntry && !k.startsWith('src/engine/') && !own.has(manifest[k]!.file))
    .filter((k) => (manifest[k]!.imports ?? []).every((i) => withBoot.has(manifest[i]!.file)))
    .filter((k) =>
      (manifest[k]!.imports ?? []).some(
        (i) => own.has(manifest[i]!.file) && !chunkClosure(manifest, 'src/app/boot.tsx').has(manifest[i]!.file),
      ),
    );
  return [...stages.map((k) => manifest[k]!.file), ...own].map((f) => `/${f}`);
}

/**
 * The chunks of a screen's whole definition (src/definitions/client.ts `loadScreen`), which its
 * route loads beside the kind's chunks: announced with them, not one round trip after.
 */
export function screenChunks(manifest: Record<string, ManifestChunk>, id: string | undefined): string[] {
  const key = id === undefined ? undefined : `screens/${id}.json`;
  return key && manifest[key] ? [...chunkClosure(manifest, key)].map((f) => `/${f}`) : [];
}

/**
 * index.html with a modulepreload for each chunk of the app's second graph (src/app/boot.tsx,
 * a dynamic import of main.tsx), so it downloads with the entry instead of one round trip
 * after it, as vite would.
 */
export function withBootPreloads(template: string, manifest: Record<string, ManifestChunk>): string {
  const files = chunkClosure(manifest, 'src/app/boot.tsx');
  const links = [...files]
    .filter((f) => !template.includes(`/${f}"`))
    .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`);
  return template.replace(/(<link rel="stylesheet"|<\/head>)/, `${links.join('\n    ')}\n    $1`);
}

/** Runs the prerender into `outDir` (dist/web) of the project at `root`. */
export async function prerenderInto(root: string, outDir: string): Promise<void> {
  const ssrOut = path.join(root, 'dist/prerender');
  await build({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
    // Everything bundled: Node then needs no ESM/CJS interop of the UI libraries.
    ssr: { noExternal: true },
    build: {
      ssr: path.join(root, 'src/app/prerender.tsx'),
      outDir: ssrOut,
      emptyOutDir: true,
      manifest: false,
      rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
    },
  });
  const mod = (await import(
    pathToFileURL(path.join(ssrOut, 'prerender.mjs')).href
  )) as typeof import('../src/app/prerender.tsx');
  const manifest = JSON.parse(await readFile(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const template = withBootPreloads(await readFile(path.join(outDir, 'index.html'), 'utf8'), manifest);
  await writeFile(path.join(outDir, 'index.html'), template);
  const target = path.join(outDir, 'prerendered');
  await rm(target, { recursive: true, force: true });
  const routes: Record<string, string> = {};
  // Hashed as written, so the policy allows exactly what the pages run (see SCRIPT_HASHES_FILE).
  const scriptHashes = new Set(inlineScriptHashes(template));
  const api = await startPrerenderApi(root);
  try {
    for (const route of mod.prerenderRoutes()) {
      // One at a time: a render uses the one i18next instance in the language it was set to.
      const pages: Array<readonly [Locale, PrerenderedPage]> = [];
      try {
        for (const locale of LOCALES) pages.push([locale, await mod.prerender(route, locale, api.apiFetch)]);
      } catch (error) {
        // A screen that cannot render outside a browser keeps the plain index.html; the build goes on.
        console.warn(`prerender: ${route} skipped (${error instanceof Error ? error.message : String(error)})`);
        continue;
      }
      for (const [locale, page] of pages) {
        await mkdir(path.join(target, locale), { recursive: true });
        const html = pageHtml(template, page, locale, route, [
          ...kindChunks(manifest, mod.screenKindOf(route) ?? ''),
          ...screenChunks(manifest, mod.screenIdOf(route)),
        ]);
        for (const hash of inlineScriptHashes(html)) scriptHashes.add(hash);
        await writeFile(path.join(target, locale, `${pageName(route)}.html`), html);
      }
      routes[route] = pageName(route);
    }
  } finally {
    await api.stop();
  }
  await writeFile(path.join(target, 'routes.json'), JSON.stringify(routes, null, 1));
  await writeFile(path.join(outDir, SCRIPT_HASHES_FILE), JSON.stringify([...scriptHashes].sort(), null, 1));
  await rm(ssrOut, { recursive: true, force: true });
}
