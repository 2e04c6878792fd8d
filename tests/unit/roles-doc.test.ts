/**
 * The written role matrix and the checks on field-level rules: docs/roles.md is what the
 * definitions say, `npm run check` names a stale one and tells the command, and a read-only
 * or hidden field must exist in its entity (a hidden one in a subject the role may read).
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
import { createAbility, rulesFromPermissions } from '../../src/shared/ability.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';

const { sources } = await loadDefinitionSources(REPO_ROOT);
const registry = createDefinitionRegistry(sources);
const access = registry.access!;
const manifests = [...registry.entities.values()].map((e) => e.manifest);

describe('docs/roles.md', () => {
  it('is committed as the definitions render it', () => {
    expect(readFileSync(path.join(REPO_ROOT, ROLES_DOC_PATH), 'utf8')).toBe(renderRolesDoc(access, manifests));
  });

  it('has a section per role with its scope and its permissions, one a line, and each field rule one field a line', () => {
    const doc = renderRolesDoc(access, manifests);
    for (const role of access.roles) {
      const section = doc.split(`### ${role.code}\n`)[1]!.split('\n### ')[0]!;
      expect(section).toContain(`Scope: **${role.scope}**`);
      for (const p of role.permissions) expect(section).toMatch(new RegExp(`^- \`${p}\`$`, 'm'));
      const lines = section.split('\n');
      for (const [list, label] of [
        [role.readOnlyFields ?? [], 'read-only fields'],
        [role.hiddenFields ?? [], 'hidden fields'],
      ] as const) {
        for (const rule of list) {
          // The subject's block, then its field list: one field a line, nothing else on it.
          const block = lines.slice(lines.findIndex((l) => l.startsWith(`${rule.subject} (`)));
          const at = block.indexOf(`  - ${label}:`);
          expect(at, `${role.code} · ${rule.subject} · ${label}`).toBeGreaterThan(0);
          const fields = block
            .slice(at + 1)
            .filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('    - ')));
          expect(fields).toEqual([...rule.fields].sort().map((f) => `    - \`${f}\``));
        }
      }
    }
  });

  it('changes one line, and no other, when a role gains a permission', () => {
    const role = access.roles.find((r) => !r.permissions.some((p) => p === 'manage all' || p.endsWith(' Message')))!;
    const before = renderRolesDoc(access, manifests).split('\n');
    const more = structuredClone(access);
    more.roles.find((r) => r.code === role.code)!.permissions.push('announce Message');
    const after = renderRolesDoc(more, manifests).split('\n');
    expect(after.length - before.length).toBe(1);
    // The one inserted line; every line before and after it as it was.
    const at = after.findIndex((l, i) => l !== before[i]);
    expect(after[at]).toBe('- `announce Message`');
    expect([...after.slice(0, at), ...after.slice(at + 1)]).toEqual(before);
  });

  it('makes npm run check fail with the command to run when it is stale', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'roles-doc-'));
    try {
      for (const part of ['schemas', 'workflows', 'screens', 'src/i18n/locales', 'docs'])
        cpSync(path.join(REPO_ROOT, part), path.join(dir, part), { recursive: true });
      const file = path.join(dir, ROLES_DOC_PATH);
      writeFileSync(file, readFileSync(file, 'utf8').replace('- delete Appeal\n', ''));
      const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/check.ts'), dir], {
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(1);
      expect(result.stderr).toContain(`${ROLES_DOC_PATH}#/: stale or missing`);
      expect(result.stderr).toContain('npm run docs:roles');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('read-only and hidden fields in access.json', () => {
  const abilityOf = (role: { permissions: string[] }) => createAbility(rulesFromPermissions(role.permissions));
  // For hidden fields: a role that may read some subjects and not others.
  const reader = access.roles.find(
    (r) =>
      manifests.some((m) => abilityOf(r).can('read', m.subject)) &&
      manifests.some((m) => !abilityOf(r).can('read', m.subject)),
  )!;
  const withRule = (rule: unknown, list: 'readOnlyFields' | 'hiddenFields' = 'readOnlyFields') => {
    const copy = new Map([...sources].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
    const json = copy.get('schemas/_access/access.json')!.json as AccessDefinition;
    const role =
      list === 'hiddenFields'
        ? json.roles.find((r) => r.code === reader.code)!
        : json.roles.find((r) => r.permissions.some((p) => p.startsWith('update ')))!;
    role[list] = [rule as never];
    return {
      problems: checkDefinitions(copy, implementationNames, DEFINITION_RULES),
      index: json.roles.indexOf(role),
      role,
    };
  };
  const subject = manifests[0]!.subject;

  it('rejects a field the entity lacks, a server-owned field and an unknown subject', () => {
    const missing = withRule({ subject, fields: ['/noSuchField'] });
    expect(missing.problems).toContainEqual(
      expect.objectContaining({
        pointer: `/roles/${missing.index}/readOnlyFields/0/fields/0`,
        message: expect.stringMatching(/has no field "\/noSuchField"/),
      }),
    );
    const system = withRule({ subject, fields: ['/status'] });
    expect(system.problems).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/server-owned/) }));
    const unknown = withRule({ subject: 'NoSuchSubject', fields: ['/x'] });
    expect(unknown.problems).toContainEqual(
      expect.objectContaining({ pointer: `/roles/${unknown.index}/readOnlyFields/0/subject` }),
    );
  });

  it('checks hidden fields the same way, and refuses them in a subject the role may not read', () => {
    const readable = manifests.find((m) => abilityOf(reader).can('read', m.subject))!;
    const unread = manifests.find((m) => !abilityOf(reader).can('read', m.subject))!;
    const firstField = (id: string) => `/${Object.keys(registry.entities.get(id)!.schema.properties ?? {})[0]!}`;
    const missing = withRule({ subject: readable.subject, fields: ['/noSuchField'] }, 'hiddenFields');
    expect(missing.problems).toContainEqual(
      expect.objectContaining({
        pointer: `/roles/${missing.index}/hiddenFields/0/fields/0`,
        message: expect.stringMatching(/has no field "\/noSuchField"/),
      }),
    );
    const system = withRule({ subject: readable.subject, fields: ['/owner'] }, 'hiddenFields');
    expect(system.problems).toContainEqual(
      expect.objectContaining({
        pointer: `/roles/${system.index}/hiddenFields/0/fields/0`,
        message: expect.stringMatching(/server-owned/),
      }),
    );
    const pointless = withRule({ subject: unread.subject, fields: [firstField(unread.id)] }, 'hiddenFields');
    expect(pointless.problems).toContainEqual(
      expect.objectContaining({
        pointer: `/roles/${pointless.index}/hiddenFields/0/subject`,
        message: expect.stringMatching(/may not read/),
      }),
    );
    const fine = withRule({ subject: readable.subject, fields: [firstField(readable.id)] }, 'hiddenFields');
    expect(fine.problems.filter((p) => p.pointer.includes('/hiddenFields/'))).toEqual([]);
  });
});
