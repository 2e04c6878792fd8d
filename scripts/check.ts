/**
 * `npm run check`: validates every definition against its meta-schema and every
 * cross-reference. Prints one line per problem (`file#pointer: message`) and exits 1 if
 * there is any.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatProblem } from '../src/definitions/check.ts';
import { loadCheckedDefinitions } from '../src/server/definitions-check.ts';
import { existsSync, readFileSync } from 'node:fs';
import { checkGeneratedDocs } from '../src/definitions/check/docs.ts';

const root = process.argv[2]
  ? path.resolve(process.argv[2])
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
for (const p of problems) console.error(formatProblem(p));
if (problems.length) {
  console.error(`check: ${problems.length} problem(s) in ${root}`);
  process.exit(1);
}
console.log(`check: ${sources.size} definition files are valid`);
