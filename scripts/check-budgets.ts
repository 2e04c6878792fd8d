/**
 * `npm run budgets`: fails when a route of the built web app (dist/web) loads more gzip
 * JavaScript than its budget (scripts/bundle/budgets.ts), naming the route and the excess.
 * Needs the build, so scripts/pretest.ts runs it after `build`. Prints every budgeted route.
 * An argument names another build directory (the tests feed it a made-up build).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUDGETS, describeExcess, overBudget, unmeasured } from './bundle/budgets.ts';
import { kb, measureBuild } from './bundle/route-sizes.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, 'dist/web');
if (!existsSync(path.join(out, '.vite/manifest.json'))) {
  console.error(`budgets: no build in ${out} — run \`npm run build\` first`);
  process.exit(1);
}
const { sizes } = measureBuild(out);
for (const s of sizes)
  if (BUDGETS[s.route] !== undefined)
    console.log(`  ${s.route.padEnd(12)} ${kb(s.js).padStart(10)}   (budget ${kb(BUDGETS[s.route]!)})`);
const missing = unmeasured(sizes);
const over = overBudget(sizes);
for (const route of missing) console.error(`budgets: the build has no route "${route}" to measure`);
for (const o of over) console.error(`budgets: ${describeExcess(o)}`);
if (missing.length || over.length) process.exit(1);
console.log('budgets: every route within its budget');
