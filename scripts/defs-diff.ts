/**
 * `npm run defs:diff -- <git ref> [root]`: what changed in the definitions since `<ref>` (a
 * branch, tag or commit), in plain words, grouped by entity, breaking changes marked. Compares
 * the working tree (uncommitted edits included) with the ref. Always exits 0 when it could
 * compare; 2 when the ref names no commit.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffDefinitions } from '../src/definitions/diff.ts';
import { loadComparableDefinitions, loadDefinitionsAt, UnknownRefError } from '../src/definitions/diff/load.ts';
import { formatChanges } from '../src/definitions/diff/text.ts';

const [ref, rootArg] = process.argv.slice(2);
if (!ref) {
  console.error('usage: npm run defs:diff -- <git ref>   (e.g. main, HEAD~1, a commit id)');
  process.exit(2);
}
const root = rootArg ? path.resolve(rootArg) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  const base = await loadDefinitionsAt(root, ref);
  const { sources: head } = await loadComparableDefinitions(root);
  console.log(formatChanges(diffDefinitions(base, head), ref));
} catch (error) {
  if (!(error instanceof UnknownRefError)) throw error;
  console.error(`defs:diff: ${error.message}`);
  process.exit(2);
}
