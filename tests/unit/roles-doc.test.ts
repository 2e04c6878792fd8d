/**
 * The written role matrix and the checks on field-level rules: docs/roles.md is what the
 * definitions say, `npm run check` names a stale one and tells the command, and a read-only
 * field must exist in its entity.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions } from '../../src/definitions/check.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { renderRolesDoc, ROLES_DOC_PATH } from '../../src/definitions/roles-doc.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import type { AccessDefinition } from '../../src/generated/meta.ts';

const { sources } = await loadDefinitionSources(REPO_ROOT);
const registry = createDefinitionRegistry(sources);
const access = registry.access!;
const manifests = [...registry.entities.values()].map((e) => e.manifest);

describe('docs/roles.md', () => {
  it('is committed as the definitions render it', () => {
    expect(readFileSync(path.join(REPO_ROOT, ROLES_DOC_PATH), 'utf8')).toBe(renderRolesDoc(access, manifests));
  });

  it('has a section per role with its scope and a row per subject, and lists read-only fields', () => {
    const doc = renderRolesDoc(access, manifests);
    for (const role of access.roles) {
      const section = doc.split(`### ${role.code}\n`)[1]!.split('\n### ')[0]!;
      expect(section).toContain(`Scope: **${role.scope}**`);
      for (const m of manifests) expect(section).toMatch(new RegExp(`^\\| ${m.subject} \\|`, 'm'));
      for (const rule of role.readOnlyFields ?? []) {
        const row = section.split('\n').find((l) => l.startsWith(`| ${rule.subject} |`))!;
        for (const field of rule.fields) expect(row).toContain(`\`${field}\``);
      }
    }
  });

  it('makes npm run check fail with the command to run when it is stale', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'roles-doc-'));
    try {
      for (const part of ['schemas', 'workflows', 'screens', 'src/i18n/locales', 'docs']) cpSync(path.join(REPO_ROOT, part), path.join(dir, part), { recursive: true });
      const file = path.join(dir, ROLES_DOC_PATH);
      writeFileSync(file, readFileSync(file, 'utf8').replace('| c r u d |', '| c r u |'));
      const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/check.ts'), dir], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(1);
      expect(result.stderr).toContain(`${ROLES_DOC_PATH}#/: stale or missing`);
      expect(result.stderr).toContain('npm run docs:roles');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('read-only fields in access.json', () => {
  const withRule = (rule: unknown) => {
    const copy = new Map([...sources].map(([k, v]) => [k, { path: v.path, json: structuredClone(v.json) }]));
    const json = copy.get('schemas/_access/access.json')!.json as AccessDefinition;
    const role = json.roles.find((r) => r.permissions.some((p) => p.startsWith('update ')))!;
    role.readOnlyFields = [rule as never];
    return { problems: checkDefinitions(copy, implementationNames), index: json.roles.indexOf(role) };
  };
  const subject = manifests[0]!.subject;

  it('rejects a field the entity lacks, a server-owned field and an unknown subject', () => {
    const missing = withRule({ subject, fields: ['/noSuchField'] });
    expect(missing.problems).toContainEqual(expect.objectContaining({ pointer: `/roles/${missing.index}/readOnlyFields/0/fields/0`, message: expect.stringMatching(/has no field "\/noSuchField"/) }));
    const system = withRule({ subject, fields: ['/status'] });
    expect(system.problems).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/server-owned/) }));
    const unknown = withRule({ subject: 'NoSuchSubject', fields: ['/x'] });
    expect(unknown.problems).toContainEqual(expect.objectContaining({ pointer: `/roles/${unknown.index}/readOnlyFields/0/subject` }));
  });
});
