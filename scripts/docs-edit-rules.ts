/**
 * `npm run docs:edit-rules`: writes docs/edit-rules.md — per entity and status, who may change
 * which fields and who may delete — from the entities' edit.json, their machines and
 * schemas/_access/access.json. `npm run check` fails when the committed file is stale.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDefinitionSources } from '../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../src/definitions/registry.ts';
import { EDIT_RULES_DOC_PATH, renderEditRulesDoc } from '../src/definitions/edit-rules-doc.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const registry = createDefinitionRegistry((await loadDefinitionSources(root)).sources);
const file = path.join(root, EDIT_RULES_DOC_PATH);
await mkdir(path.dirname(file), { recursive: true });
await writeFile(file, renderEditRulesDoc(registry));
console.log(`docs:edit-rules: wrote ${EDIT_RULES_DOC_PATH} (${registry.entities.size} entities)`);
