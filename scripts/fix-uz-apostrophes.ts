/**
 * `npm run fix:uz-apostrophes`: rewrites every uz (Latin) text of the repository (scripts/uz-texts.ts)
 * with the official apostrophes — ʻ in oʻ/gʻ, ʼ for the tutuq belgisi (src/shared/uz-apostrophes.ts)
 * — and formats the files it changed. Idempotent: a second run changes nothing, so it can be run
 * again after merging texts written elsewhere. `npm run check` names what is still wrong.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixUzApostrophes } from '../src/shared/uz-apostrophes.ts';
import { wrongUzApostrophes } from './uz-texts.ts';

const root = process.argv[2]
  ? path.resolve(process.argv[2])
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Sets the value at a JSON pointer of parsed JSON. */
function setAt(data: unknown, pointer: string, value: string): void {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const last = segments.pop()!;
  let node = data as Record<string, unknown>;
  for (const s of segments) node = node[s] as Record<string, unknown>;
  node[last] = value;
}

const wrong = wrongUzApostrophes(root);
const files = [...new Set(wrong.map((t) => t.file))];
for (const file of files) {
  const full = path.join(root, file);
  const data = JSON.parse(readFileSync(full, 'utf8'));
  for (const t of wrong.filter((w) => w.file === file)) setAt(data, t.pointer, fixUzApostrophes(t.value));
  writeFileSync(full, `${JSON.stringify(data, null, 2)}\n`);
}
if (files.length) {
  // JSON.stringify's layout is not Biome's: the files are formatted back as the check wants them.
  const biome = path.join(root, 'node_modules', '.bin', 'biome');
  spawnSync(biome, ['format', '--write', ...files], { cwd: root, stdio: 'inherit' });
}
console.log(`fix:uz-apostrophes: ${wrong.length} text(s) rewritten in ${files.length} file(s)`);
