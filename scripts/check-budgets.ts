/**
 * `npm run budgets`: fails when a route of the built web app (dist/web) loads more gzip
 * JavaScript than its ceiling (scripts/bundle/budgets.ts: its size when last measured, plus
 * 2%), naming the route and the excess, and prints how far each route is from its budget (the
 * target). With `--targets` it fails on the budgets themselves. `scripts/pretest.ts` runs it
 * after the build. Another argument names another build directory (the tests feed it a made-up build).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUDGETS, CEILINGS, describeExcess, overBudget, unmeasured } from './bundle/budgets.ts';
import { kb, measureBuild } from './bundle/route-sizes.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const targets = args.includes('--targets');
const dir = args.find((a) => !a.startsWith('--'));
const out = dir ? path.resolve(dir) : path.join(root, 'dist/web');
if (!existsSync(path.join(out, '.vite/manifest.json'))) {
  console.error(`budgets: no build in ${out} — run \`npm run build\` first`);
  process.exit(1);
}
const gate = targets ? BUDGETS : CEILINGS;
const { sizes } = measureBuild(out);
for (const s of sizes) {
  const budget = BUDGETS[s.route];
  if (budget === undefined) continue;
  const gap = s.js > budget ? `${kb(s.js - budget)} over the budget` : 'within the budget';
  console.log(
    `  ${s.route.padEnd(12)} ${kb(s.js).padStart(10)}   (budget ${kb(budget)}, ${gap}; ceiling ${kb(CEILINGS[s.route]!)})`,
  );
}
const missing = unmeasured(sizes, gate);
const over = overBudget(sizes, gate);
for (const route of missing) console.error(`budgets: the build has no route "${route}" to measure`);
for (const o of over) console.error(`budgets: ${describeExcess(o, targets ? 'budget' : 'ceiling')}`);
if (missing.length || over.length) process.exit(1);
console.log(`budgets: every route within its ${targets ? 'budget' : 'ceiling'}`);
