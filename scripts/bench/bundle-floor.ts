/**
 * `npm run bench:bundle-floor`: the least JavaScript the byte budgets' routes could load with
 * the libraries the portal is built on (the brief's stack), none of the portal's own code:
 * three minimal apps (scripts/bundle/floor/) built as the web app is (production files,
 * minified), each measured as gzip at level 9 like `npm run budgets`, and printed beside the
 * budgets of the routes they are the floor of (scripts/bundle/budgets.ts). A floor over a
 * budget means no work on the portal's code can meet that budget with these libraries.
 * Prints only; never asserts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { productionReactRouter } from '../../vite.config.ts';
import { BUDGETS } from '../bundle/budgets.ts';
import { FIRST_VISIT, kb } from '../bundle/route-sizes.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Floor app → the budgeted routes it is the floor of. */
const FLOORS: Record<string, string[]> = {
  'first-visit': [FIRST_VISIT],
  form: ['form', 'wizard', 'signin'],
  list: ['list'],
};

/** Builds one floor app and answers the gzip bytes of its JavaScript. */
async function measure(name: string): Promise<number> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), `floor-${name}-`));
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'error',
      mode: 'production',
      plugins: [productionReactRouter()],
      build: {
        outDir,
        write: true,
        emptyOutDir: true,
        rollupOptions: { input: path.join(root, `scripts/bundle/floor/${name}.tsx`) },
      },
    });
    const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    return files.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(outDir, f)), { level: 9 }).length, 0);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

console.log("The mandated libraries alone, as minimal apps (gzip JS), beside the routes' budgets:");
for (const [name, routes] of Object.entries(FLOORS)) {
  const floor = await measure(name);
  for (const route of routes) {
    const budget = BUDGETS[route]!;
    const verdict =
      floor > budget ? `floor ${kb(floor - budget)} over the budget` : `${kb(budget - floor)} left for the portal`;
    console.log(`  ${route.padEnd(12)} floor ${kb(floor).padStart(9)}   budget ${kb(budget).padStart(9)}   ${verdict}`);
  }
}
