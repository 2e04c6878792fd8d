/**
 * `npm run test:entity -- <id> [<id>…] [vitest options]`: every generated test of one entity (or
 * of several, in one run) — its round-trip and refusals, list-search, export, permission matrix
 * rows, edit-rule cells, workflow paths and open datasets — and none of the others'. Checks each
 * id against schemas/ first (an unknown one fails naming the closest id and listing them all),
 * then runs vitest on the generated contract files with TEST_ENTITY set (read by
 * tests/support/test-selection.ts). TEST_DB still picks the databases.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unknownNameMessage } from '../src/definitions/check/suggest.ts';
import { createDefinitionRegistry } from '../src/definitions/registry.ts';
import { loadDefinitionSources } from '../src/definitions/sources.ts';

/** The contract files whose tests are generated per entity and honour TEST_ENTITY. */
const GENERATED_FILES = [
  'tests/contract/entities.test.ts',
  'tests/contract/list-search.test.ts',
  'tests/contract/export.test.ts',
  'tests/contract/permissions-matrix.test.ts',
  'tests/contract/edit-rules-matrix.test.ts',
  'tests/contract/workflows.test.ts',
  'tests/contract/open-data-catalogue.test.ts',
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('-'));
const ids = firstOption < 0 ? args : args.slice(0, firstOption);
const vitestArgs = firstOption < 0 ? [] : args.slice(firstOption);
if (!ids.length) {
  console.error(
    'usage: npm run test:entity -- <entity id> [<entity id>…] [vitest options], e.g. npm run test:entity -- appeal',
  );
  process.exit(2);
}
const registry = createDefinitionRegistry((await loadDefinitionSources(root)).sources);
const known = [...registry.entities.keys()];
const unknown = ids.filter((id) => !registry.entities.has(id));
if (unknown.length) {
  for (const id of unknown)
    console.error(`test:entity: ${unknownNameMessage('entity', id, 'an entity in schemas/', known)}`);
  process.exit(2);
}
// Only the files where one of these entities has generated tests: vitest counts a file with none as failed.
const datasets = [...registry.openData.values()];
const files = GENERATED_FILES.filter((file) =>
  ids.some((id) => {
    const def = registry.entities.get(id)!;
    if (file.endsWith('workflows.test.ts')) return Boolean(def.manifest.workflow);
    if (file.endsWith('open-data-catalogue.test.ts')) return datasets.some((d) => d.entity === id);
    return true;
  }),
);
const selection = ids.join(',');
console.log(
  `test:entity: ${ids.join(' ')} in ${files.length} files (TEST_ENTITY=${selection}, TEST_DB=${process.env.TEST_DB ?? 'both'})`,
);
const vitest = path.join(root, 'node_modules', '.bin', 'vitest');
const run = spawnSync(vitest, ['run', ...files, ...vitestArgs], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_ENTITY: selection },
});
process.exit(run.status ?? 1);
