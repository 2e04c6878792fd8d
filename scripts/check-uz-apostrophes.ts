/**
 * `npm run check:uz-apostrophes` (part of `npm run check`): every uz (Latin) text
 * (scripts/uz-texts.ts) writes ʻ in oʻ/gʻ and ʼ for the tutuq belgisi, never ' ` ’ ‘. Prints one
 * line per text still wrong — file, JSON pointer, the text — and exits 1 if there is any;
 * `npm run fix:uz-apostrophes` rewrites them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { wrongUzApostrophes } from './uz-texts.ts';

const root = process.argv[2]
  ? path.resolve(process.argv[2])
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wrong = wrongUzApostrophes(root);
for (const t of wrong)
  console.error(`${t.file} ${t.pointer}: "${t.value}" — Uzbek Latin writes ʻ in oʻ/gʻ and ʼ for the tutuq belgisi`);
if (wrong.length) {
  console.error(
    `check:uz-apostrophes: ${wrong.length} uz text(s) with a wrong apostrophe; run npm run fix:uz-apostrophes`,
  );
  process.exit(1);
}
