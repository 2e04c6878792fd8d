/**
 * `npm run docs:roles`: writes docs/roles.md, the written role matrix (per role its scope,
 * description, permissions and what they allow per subject, one a line, for diffs that show
 * only what changed), from schemas/_access/access.json
 * and the entity manifests. `npm run check` fails when the committed file is stale.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDefinitionSources } from '../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../src/definitions/registry.ts';
import { renderRolesDoc, ROLES_DOC_PATH } from '../src/definitions/roles-doc.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const registry = createDefinitionRegistry((await loadDefinitionSources(root)).sources);
if (!registry.access) throw new Error('schemas/_access/access.json is missing');
const file = path.join(root, ROLES_DOC_PATH);
await mkdir(path.dirname(file), { recursive: true });
await writeFile(
  file,
  renderRolesDoc(
    registry.access,
    [...registry.entities.values()].map((e) => e.manifest),
  ),
);
console.log(
  `docs:roles: wrote ${ROLES_DOC_PATH} (${registry.access.roles.length} roles, ${registry.entities.size} entities)`,
);
