/**
 * `npm run check [-- --base <git ref>]`: validates every definition against its meta-schema
 * and every cross-reference. Prints one line per problem (`file#pointer: message`) and exits 1
 * if there is any. With `--base`, also compares the definitions with that ref (a pull
 * request's target branch) and fails on a breaking data change without a migration.
 * A positional argument names another repository root (tests).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatProblem, type DefinitionProblem } from '../src/definitions/check.ts';
import { loadCheckedDefinitions } from '../src/server/definitions-check.ts';
import { existsSync, readFileSync } from 'node:fs';
import { checkGeneratedDocs } from '../src/definitions/check/docs.ts';
import { diffDefinitions } from '../src/definitions/diff.ts';
import { migrationProblems } from '../src/definitions/diff/migrations.ts';
import { loadComparableDefinitions, loadDefinitionsAt, UnknownRefError } from '../src/definitions/diff/load.ts';

const args = process.argv.slice(2);
let base: string | undefined;
const positional: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === '--base') base = args[++i];
  else if (arg.startsWith('--base=')) base = arg.slice('--base='.length);
  else positional.push(arg);
}
if (args.some((a, i) => (a === '--base' && !args[i + 1]) || a === '--base=')) {
  console.error('check: --base needs a git ref (e.g. npm run check -- --base main)');
  process.exit(2);
}
const root = positional[0]
  ? path.resolve(positional[0])
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { sources, problems } = await loadCheckedDefinitions(root);
// The written role matrix and edit rules must say what the definitions say (only once they are valid).
if (!problems.length) {
  problems.push(
    ...checkGeneratedDocs(sources, (doc) => {
      const file = path.join(root, doc);
      return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    }),
  );
}
if (base) problems.push(...(await againstBase(base)));
for (const p of problems) console.error(formatProblem(p));
if (problems.length) {
  console.error(`check: ${problems.length} problem(s) in ${root}`);
  process.exit(1);
}
console.log(
  `check: ${sources.size} definition files are valid${base ? `; every breaking data change since ${base} has its migration` : ''}`,
);

/** The breaking data changes since `ref` that no migration covers (or the ref's own problem). */
async function againstBase(ref: string): Promise<DefinitionProblem[]> {
  try {
    const before = await loadDefinitionsAt(root, ref);
    const { sources: now } = await loadComparableDefinitions(root);
    return migrationProblems(before, now, diffDefinitions(before, now));
  } catch (error) {
    if (!(error instanceof UnknownRefError)) throw error;
    console.error(`check --base: ${error.message}`);
    process.exit(2);
  }
}
