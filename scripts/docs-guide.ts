/**
 * `npm run docs:guide`: rewrites the generated lists of docs/analyst-guide.md (widgets, formats,
 * keywords, icons, filter kinds, cell formats, screen kinds, machine guards/actions/checks/delays)
 * from the registries (scripts/guide/blocks.ts). With `--check` it writes nothing and exits 1 when
 * a list is stale (run by `npm run check`). An optional argument names another repository root.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUIDE_PATH, guideBlocks, renderGuide } from './guide/blocks.ts';

const rootArg = process.argv.slice(2).find((a) => !a.startsWith('--'));
const root = rootArg ? path.resolve(rootArg) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const file = path.join(root, GUIDE_PATH);
const { text, stale } = renderGuide(readFileSync(file, 'utf8'), guideBlocks(root));
if (check) {
  if (stale.length) {
    console.error(`docs:guide: ${GUIDE_PATH} is stale (${stale.join(', ')}); run npm run docs:guide`);
    process.exit(1);
  }
  console.log(`docs:guide: the generated lists of ${GUIDE_PATH} are current`);
} else {
  if (stale.some((s) => s.endsWith('(markers missing)'))) {
    console.error(
      `docs:guide: ${GUIDE_PATH} lacks the markers of ${stale.filter((s) => s.endsWith('(markers missing)')).join(', ')}`,
    );
    process.exit(1);
  }
  writeFileSync(file, text);
  console.log(`docs:guide: ${stale.length ? `rewrote ${stale.join(', ')}` : 'nothing to do'}`);
}
