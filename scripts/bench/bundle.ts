/**
 * `npm run bench:bundle`: what a first visit costs. Builds the web app, then prints the
 * gzip size of the JavaScript (and CSS) a first visit to `/` loads — the entry, its static
 * imports, the chunk of the home screen's kind and the default locale — and the same for
 * every screen kind's route, the largest one named. Prints only; never asserts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BUDGETS } from '../bundle/budgets.ts';
import { DEFAULT_LOCALE, LOCALES } from '../../src/shared/locales.ts';
import { closure, FIRST_VISIT, kb, keyOf, MEASURED_KINDS, measureBuild } from '../bundle/route-sizes.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.join(root, 'dist/web');
if (!process.argv.includes('--no-build')) {
  const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const { manifest, sizes, gzipOf } = measureBuild(out);
const sum = (files: Iterable<string>, ext: string) =>
  [...files].filter((f) => f.endsWith(ext)).reduce((a, f) => a + gzipOf(f), 0);
const budgetOf = (route: string) => (BUDGETS[route] === undefined ? '' : `   (budget ${kb(BUDGETS[route])})`);

const first = sizes.find((s) => s.route === FIRST_VISIT)!;
console.log('First visit to / (entry + home screen kind + default locale), gzip:');
console.log(`  JS  ${kb(first.js)}${budgetOf(FIRST_VISIT)}`);
console.log(`  CSS ${kb(first.css)}`);
// A visitor in another language loads that language's chunk instead of the default's (only one:
// src/app/i18n.ts loads no fallback).
const localeJs = (locale: string) => {
  const key = keyOf(manifest, `src/i18n/locales/${locale}.json`);
  return key ? gzipOf(manifest[key]!.file) : 0;
};
console.log(
  `  in ${LOCALES.filter((l) => l !== DEFAULT_LOCALE)
    .map((l) => `${l} ${kb(first.js - localeJs(DEFAULT_LOCALE) + localeJs(l))}`)
    .join(', ')}`,
);

let largest = { kind: '', js: 0 };
console.log('\nBy screen kind (entry + kind chunk + its imports + locale), gzip JS:');
for (const size of sizes.filter((s) => s.route !== FIRST_VISIT)) {
  const kind = MEASURED_KINDS[size.route]!;
  console.log(
    `  ${kind.padEnd(22)} ${kb(size.js).padStart(10)}   (kind's own chunks ${kb(size.own)})${budgetOf(size.route)}`,
  );
  if (size.js > largest.js) largest = { kind, js: size.js };
}
console.log(`\nLargest route: ${largest.kind} — ${kb(largest.js)}`);
// Loaded on demand inside a screen, not with its route.
const onDemand = {
  'signin/keyfile (pkijs, when a key file is used)': 'src/engine/signin/keyfile.ts',
  'dashboard/Chart (apexcharts, when a chart panel shows)': 'src/engine/dashboard/Chart.tsx',
  'shared/password-estimator (zxcvbn and its dictionaries, when a new-password field shows)':
    'src/shared/password-estimator.ts',
};
for (const [name, src] of Object.entries(onDemand)) {
  const key = keyOf(manifest, src);
  if (key) console.log(`On demand: ${name} ${kb(sum(closure(manifest, key), '.js'))}`);
}
// Markers each library's code carries in its strings, to prove where it landed.
const heavy = {
  'ag-grid': 'ag-root-wrapper',
  apexcharts: 'apexcharts-canvas',
  rjsf: 'rjsf',
  pkijs: 'PKCS8ShroudedKeyBag',
  zxcvbn: 'passwords-common',
};
const leakedInto = (files: readonly string[]) => {
  const code = files.filter((f) => f.endsWith('.js')).map((f) => readFileSync(path.join(out, f), 'utf8'));
  const names = Object.entries(heavy).filter(([, marker]) => code.some((c) => c.includes(marker)));
  return names.length ? names.map(([name]) => name).join(', ') : 'none';
};
console.log(`Heavy libraries loaded by a first visit to /: ${leakedInto(first.files)}`);
const detail = sizes.find((s) => s.route === 'detail');
if (detail) console.log(`Heavy libraries loaded by the detail route: ${leakedInto(detail.files)}`);
