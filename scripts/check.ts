/**
 * `npm run check`: validates every definition against its meta-schema and every
 * cross-reference. Prints one line per problem (`file#pointer: message`) and exits 1 if
 * there is any.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDefinitionSources } from '../src/definitions/sources.ts';
import { checkDefinitions, formatProblem } from '../src/definitions/check.ts';
import { remoteSourceAdapters } from '../src/server/integrations/adapters.ts';
import { implementationNames } from '../src/server/workflow/implementations.ts';
import { existsSync, readFileSync } from 'node:fs';
import { createDefinitionRegistry } from '../src/definitions/registry.ts';
import { renderRolesDoc, ROLES_DOC_COMMAND, ROLES_DOC_PATH } from '../src/definitions/roles-doc.ts';
import { EDIT_RULES_DOC_COMMAND, EDIT_RULES_DOC_PATH, renderEditRulesDoc } from '../src/definitions/edit-rules-doc.ts';

const root = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { sources, problems: parseProblems } = await loadDefinitionSources(root);
const problems = [...parseProblems, ...checkDefinitions(sources, { ...implementationNames, adapters: Object.keys(remoteSourceAdapters) })];
// The written role matrix and edit rules must say what the definitions say (only once they are valid).
if (!problems.length) {
  const registry = createDefinitionRegistry(sources);
  const docs = [
    { path: ROLES_DOC_PATH, command: ROLES_DOC_COMMAND, of: 'schemas/_access/access.json', expected: registry.access && renderRolesDoc(registry.access, [...registry.entities.values()].map((e) => e.manifest)) },
    { path: EDIT_RULES_DOC_PATH, command: EDIT_RULES_DOC_COMMAND, of: 'the entities\' edit.json', expected: renderEditRulesDoc(registry) },
  ];
  for (const doc of docs) {
    const docFile = path.join(root, doc.path);
    if (doc.expected && (!existsSync(docFile) || readFileSync(docFile, 'utf8') !== doc.expected)) {
      problems.push({ file: doc.path, pointer: '', message: `stale or missing: it no longer matches ${doc.of}; run \`${doc.command}\` and commit it` });
    }
  }
}
for (const p of problems) console.error(formatProblem(p));
if (problems.length) {
  console.error(`check: ${problems.length} problem(s) in ${root}`);
  process.exit(1);
}
console.log(`check: ${sources.size} definition files are valid`);
