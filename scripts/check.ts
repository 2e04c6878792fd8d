/**
 * `npm run check`: validates every definition against its meta-schema and every
 * cross-reference. Prints one line per problem (`file#pointer: message`) and exits 1 if
 * there is any.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDefinitionSources } from '../src/definitions/sources.ts';
import { checkDefinitions, formatProblem } from '../src/definitions/check.ts';
import { implementationNames } from '../src/server/workflow/implementations.ts';

const root = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { sources, problems: parseProblems } = await loadDefinitionSources(root);
const problems = [...parseProblems, ...checkDefinitions(sources, implementationNames)];
for (const p of problems) console.error(formatProblem(p));
if (problems.length) {
  console.error(`check: ${problems.length} problem(s) in ${root}`);
  process.exit(1);
}
console.log(`check: ${sources.size} definition files are valid`);
