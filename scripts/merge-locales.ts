/**
 * Merges `src/i18n/pending/*.json` (`{en: {...}, ru: {...}, uz: {...}, uzCyrillic: {...}}`)
 * into the four locale files and deletes the pending files: how keys written in parallel
 * branches of work land without editing the same file at once. Existing keys win.
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES } from '../src/shared/locales.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pendingDir = path.join(root, 'src/i18n/pending');
type Tree = { [k: string]: string | Tree };

const merge = (into: Tree, from: Tree, at: string, conflicts: string[]): void => {
  for (const [k, v] of Object.entries(from)) {
    const key = at ? `${at}.${k}` : k;
    const cur = into[k];
    if (cur === undefined) into[k] = v;
    else if (typeof cur === 'object' && typeof v === 'object') merge(cur, v, key, conflicts);
    else if (JSON.stringify(cur) !== JSON.stringify(v)) conflicts.push(key);
  }
};

if (existsSync(pendingDir)) {
  const files = readdirSync(pendingDir).filter((f) => f.endsWith('.json'));
  for (const locale of LOCALES) {
    const file = path.join(root, 'src/i18n/locales', `${locale}.json`);
    const tree = JSON.parse(readFileSync(file, 'utf8')) as Tree;
    for (const f of files) {
      const pending = JSON.parse(readFileSync(path.join(pendingDir, f), 'utf8')) as Record<string, Tree>;
      const conflicts: string[] = [];
      merge(tree, pending[locale] ?? {}, '', conflicts);
      if (conflicts.length) console.warn(`${f} (${locale}): kept existing ${conflicts.join(', ')}`);
    }
    writeFileSync(file, `${JSON.stringify(tree, null, 2)}\n`);
  }
  for (const f of files) rmSync(path.join(pendingDir, f));
  console.log(`merged ${files.join(', ') || 'nothing'}`);
}
