import type { DefinitionRegistry } from './registry.ts';

/** The CRUD actions every entity subject gets in the permission catalogue. */
const CRUD = ['create', 'read', 'update', 'delete'] as const;

/**
 * Named seed generators (a manifest's `seed.generator`): records computed from the
 * definitions rather than listed in a file, like xstate's named actions — the manifest names
 * one, the implementation lives here once.
 */
export const seedGenerators: Record<string, (registry: DefinitionRegistry) => Array<Record<string, unknown>>> = {
  /**
   * The permission catalogue: every "action Subject" named in the access definition (guest
   * and roles) plus create/read/update/delete of every entity's subject, as
   * `{code, action, subject}`, sorted by subject then action.
   */
  permissions(registry) {
    const codes = new Set<string>();
    for (const def of registry.entities.values())
      for (const action of CRUD) codes.add(`${action} ${def.manifest.subject}`);
    for (const p of registry.access?.guest.permissions ?? []) codes.add(p);
    for (const role of registry.access?.roles ?? []) for (const p of role.permissions) codes.add(p);
    return [...codes]
      .map((code) => ({ code, action: code.slice(0, code.indexOf(' ')), subject: code.slice(code.indexOf(' ') + 1) }))
      .sort((a, b) => a.subject.localeCompare(b.subject) || a.action.localeCompare(b.action));
  },
};

/** The generator names, for the definition check. */
export const SEED_GENERATORS: ReadonlySet<string> = new Set(Object.keys(seedGenerators));
