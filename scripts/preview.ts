/**
 * `npm run preview -- <entity>…` or `npm run preview -- --changed [<git ref>]` (default main):
 * what a reviewer needs to see a changed entity without running the app by hand. It builds the
 * web app if needed, starts the portal on a throwaway PGlite data dir on a free loopback port,
 * signs in as the admin, creates sample records generated from the schema, and with Debian's
 * Chromium (playwright-core) screenshots the entity's list, empty form, filled form, record page
 * and machine diagram at 1280 and 360 px in the four languages into `.tmp/preview/<entity>/`,
 * with an `index.html` gallery. `PREVIEW_LOCALES=en,ru` and `PREVIEW_WIDTHS=1280` narrow it;
 * `PREVIEW_DIR` puts the folders elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { loadDefinitionSources } from '../src/definitions/sources.ts';
import { createDefinitionRegistry, type DefinitionRegistry } from '../src/definitions/registry.ts';
import { LOCALES, type Locale } from '../src/shared/locales.ts';
import { rulesFromPermissions } from '../src/shared/ability.ts';
import { didYouMean } from '../src/definitions/check/suggest.ts';
import { changedFiles, entitiesOfFiles } from './preview/changed.ts';
import { machineSvg } from './preview/diagram.ts';
import { renderGallery } from './preview/gallery.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = `preview-${Math.random().toString(36).slice(2)}-A1!`;
const SAMPLES = 3;
/** Where the folders go (`PREVIEW_DIR`, default `.tmp/preview`; tests use a throwaway one). */
const OUT_DIR = path.resolve(root, process.env.PREVIEW_DIR ?? '.tmp/preview');

const fail = (message: string): never => {
  console.error(`preview: ${message}`);
  process.exit(1);
};

/** The chosen entities, from the arguments. */
function entitiesToShow(registry: DefinitionRegistry, args: string[]): string[] {
  const changed = args.indexOf('--changed');
  if (changed >= 0) {
    const ref = args[changed + 1] && !args[changed + 1]!.startsWith('-') ? args[changed + 1]! : 'main';
    let files: string[] = [];
    try {
      files = changedFiles(root, ref);
    } catch (error) {
      fail((error as Error).message);
    }
    const ids = entitiesOfFiles(registry, files);
    if (!ids.length) {
      console.log(`preview: no entity's definitions differ from ${ref} (${files.length} files changed)`);
      process.exit(0);
    }
    console.log(`preview: entities changed since ${ref}: ${ids.join(', ')}`);
    return ids;
  }
  const ids = args.filter((a) => !a.startsWith('-'));
  if (!ids.length) fail('name an entity (npm run preview -- appeal) or use --changed [<git ref>]');
  for (const id of ids)
    if (!registry.entities.has(id))
      fail(
        `unknown entity "${id}"${didYouMean(id, registry.entities.keys())}; entities: ${[...registry.entities.keys()].sort().join(', ')}`,
      );
  return ids;
}

/** A list of the environment variable's values, or all of `all`. */
function narrowed<T extends string | number>(name: string, all: readonly T[], parse: (s: string) => T): T[] {
  const raw = process.env[name];
  if (!raw) return [...all];
  const picked = raw.split(',').map((s) => parse(s.trim()));
  const unknown = picked.filter((p) => !all.includes(p));
  if (unknown.length) fail(`${name}: unknown ${unknown.join(', ')}; allowed: ${all.join(', ')}`);
  return picked;
}

const { sources } = await loadDefinitionSources(root);
const registry = createDefinitionRegistry(sources);
const ids = entitiesToShow(registry, process.argv.slice(2));
const locales = narrowed<Locale>('PREVIEW_LOCALES', LOCALES, (s) => s as Locale);
const widths = narrowed<number>('PREVIEW_WIDTHS', [1280, 360], Number);
if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} not found (apt-get install -y chromium, or set CHROMIUM_PATH)`);

const build = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/ensure-build.ts')], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) fail('the web app did not build');

// Imported after the build check: the server module reads dist/web when it is built.
const { buildApp } = await import('../src/server/app.ts');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-preview-'));
let app: FastifyInstance | undefined;
let browser: Browser | undefined;
try {
  app = await buildApp({ dataDir, adminPassword: PASSWORD, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const signIn = await fetch(`${url}/api/auth-payload`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  if (!signIn.ok) fail(`the admin could not sign in: ${signIn.status} ${await signIn.text()}`);
  const session = (await signIn.json()) as Record<string, unknown> & { token: string; permissions: string[] };
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  const { previewEntity } = await import('./preview/shoot.ts');
  for (const id of ids) {
    const out = path.join(OUT_DIR, id);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const { shots, notes } = await previewEntity({
      registry,
      id,
      url,
      session,
      browser,
      out,
      locales,
      widths,
      samples: SAMPLES,
      translate: (locale, key) => {
        const text = app!.translator.t(locale, key);
        return text === key ? undefined : text;
      },
      diagram: machineSvg,
      rules: rulesFromPermissions(session.permissions),
    });
    writeFileSync(path.join(out, 'index.html'), renderGallery(id, shots, notes));
    console.log(`preview: ${id}: ${shots.length} screenshots${notes.length ? `, ${notes.length} notes` : ''}`);
    console.log(path.join(out, 'index.html'));
  }
} finally {
  await browser?.close();
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
