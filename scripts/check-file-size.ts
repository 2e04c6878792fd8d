/**
 * `npm run check:size` (part of `npm run check`): no hand-written file in `src` is longer than
 * 400 lines — a file past that is usually two concepts (docs/architecture.md, conventions).
 * Prints one line per offender (`path: N lines`) and exits 1 if there is any.
 *
 * Exempt: `src/generated/` (codegen output) and JSON files (the locale files hold one text per
 * line for a whole language; splitting them would split the language, not a concept).
 * Lines are counted as the file stands, so run `npm run format` first: Biome's rewrapping at
 * 120 columns can push a file over.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The most lines a hand-written file in src may have. */
const MAX_LINES = 400;

const root = process.argv[2]
  ? path.resolve(process.argv[2])
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const exempt = (file: string): boolean => file.startsWith('src/generated/') || file.endsWith('.json');

/** Lines as `wc -l` counts them, plus a last line without a newline. */
const countLines = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

const files = readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
  .filter((file) => !exempt(file))
  .sort();

const offenders = files
  .map((file) => ({ file, lines: countLines(readFileSync(path.join(root, file), 'utf8')) }))
  .filter(({ lines }) => lines > MAX_LINES);

for (const { file, lines } of offenders) console.error(`${file}: ${lines} lines (at most ${MAX_LINES})`);
if (offenders.length) {
  console.error(`check:size: ${offenders.length} file(s) in src over ${MAX_LINES} lines; split each by concept`);
  process.exit(1);
}
console.log(`check:size: ${files.length} files in src, none over ${MAX_LINES} lines`);
