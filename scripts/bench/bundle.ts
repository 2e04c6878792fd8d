/**
 * `npm run bench:bundle`: what a first visit costs. Builds the web app, then prints the
 * gzip size of the JavaScript (and CSS) a first visit to `/` loads — the entry, its static
 * imports, the chunk of the home screen's kind and the default locale — and the same for
 * every screen kind's route, the largest one named. Prints only; never asserts.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.join(root, 'dist/web');
if (!process.argv.includes('--no-build')) {
  const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
const manifest = JSON.parse(readFileSync(path.join(out, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
const gz = new Map<string, number>();
const gzipOf = (file: string): number => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(out, file)), { level: 9 }).length);
  return gz.get(file)!;
};

/** Every file a chunk needs before it runs: itself, its static imports (recursively), its CSS. */
function closure(key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const imp of chunk.imports ?? []) closure(imp, into);
  return into;
}
const keyOf = (src: string) => Object.keys(manifest).find((k) => k === src || manifest[k]!.src === src);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const sum = (files: Set<string>, ext: string) =>
  [...files].filter((f) => f.endsWith(ext)).reduce((a, f) => a + gzipOf(f), 0);

const entry = closure('index.html');
// main.tsx imports the app's second graph dynamically (evaluated in its own task) but on
// every page: it is part of the entry's cost.
const boot = keyOf('src/app/boot.tsx');
if (boot) closure(boot, entry);
const locale = keyOf('src/i18n/locales/uzCyrillic.json');
const first = new Set(entry);
const home = keyOf('src/engine/page/PageScreen.tsx');
if (home) closure(home, first);
if (locale) closure(locale, first);

console.log('First visit to / (entry + home screen kind + default locale), gzip:');
console.log(`  JS  ${kb(sum(first, '.js'))}   (target ≤ 170 KB)`);
console.log(`  CSS ${kb(sum(first, '.css'))}`);

const kinds = [
  'list/ListScreen',
  'form/FormScreen',
  'wizard/WizardScreen',
  'detail/DetailScreen',
  'lookup/LookupScreen',
  'page/PageScreen',
  'signin/SignInScreen',
  'dashboard/DashboardScreen',
  'flow/FlowScreen',
  'profile/ProfileScreen',
];
let largest = { kind: '', js: 0 };
console.log('\nBy screen kind (entry + kind chunk + its imports + locale), gzip JS:');
for (const kind of kinds) {
  const key = keyOf(`src/engine/${kind}.tsx`);
  if (!key) continue;
  const files = closure(key, new Set(entry));
  if (locale) closure(locale, files);
  const js = sum(files, '.js');
  const own = sum(closure(key), '.js');
  console.log(`  ${kind.padEnd(22)} ${kb(js).padStart(10)}   (kind's own chunks ${kb(own)})`);
  if (js > largest.js) largest = { kind, js };
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
  const key = keyOf(src);
  if (key) console.log(`On demand: ${name} ${kb(sum(closure(key), '.js'))}`);
}
// Markers each library's code carries in its strings, to prove where it landed.
const heavy = {
  'ag-grid': 'ag-root-wrapper',
  apexcharts: 'apexcharts-canvas',
  rjsf: 'rjsf',
  pkijs: 'PKCS8ShroudedKeyBag',
  zxcvbn: 'passwords-common',
};
const firstJs = [...first].filter((f) => f.endsWith('.js')).map((f) => readFileSync(path.join(out, f), 'utf8'));
const leaked = Object.entries(heavy)
  .filter(([, marker]) => firstJs.some((code) => code.includes(marker)))
  .map(([name]) => name);
console.log(`Heavy libraries loaded by a first visit to /: ${leaked.length ? leaked.join(', ') : 'none'}`);
