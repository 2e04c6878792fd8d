/**
 * `npm run test:entity -- <id> [vitest options]`: every generated test of one entity — its
 * round-trip and refusals, list-search, export, permission matrix rows, edit-rule cells,
 * workflow paths and open datasets — and none of the others'. Checks the id against schemas/
 * first (an unknown one fails naming the closest id and listing them all), then runs vitest on
 * the generated contract files with TEST_ENTITY set (read by tests/support/test-selection.ts).
 * TEST_DB still picks the databases.
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
const [id, ...vitestArgs] = process.argv.slice(2);
if (!id || id.startsWith('-')) {
  console.error('usage: npm run test:entity -- <entity id> [vitest options], e.g. npm run test:entity -- appeal');
  process.exit(2);
}
const registry = createDefinitionRegistry((await loadDefinitionSources(root)).sources);
const ids = [...registry.entities.keys()];
if (!registry.entities.has(id)) {
  console.error(`test:entity: ${unknownNameMessage('entity', id, 'an entity in schemas/', ids)}`);
  process.exit(2);
}
// Only the files where this entity has generated tests: vitest counts a file with none as failed.
const datasets = [...registry.openData.values()];
const files = GENERATED_FILES.filter((file) => {
  const def = registry.entities.get(id)!;
  if (file.endsWith('workflows.test.ts')) return Boolean(def.manifest.workflow);
  if (file.endsWith('open-data-catalogue.test.ts')) return datasets.some((d) => d.entity === id);
  return true;
});
console.log(
  `test:entity: ${id} in ${files.length} files (TEST_ENTITY=${id}, TEST_DB=${process.env.TEST_DB ?? 'both'})`,
);
const vitest = path.join(root, 'node_modules', '.bin', 'vitest');
const run = spawnSync(vitest, ['run', ...files, ...vitestArgs], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_ENTITY: id },
});
process.exit(run.status ?? 1);
