import type { AccessDefinition } from '../../generated/meta.ts';
import type { Queryable } from '../db/database.ts';
import type { EntityStore } from '../store/entity-store.ts';
import type { Actor } from './access.ts';

type DefaultRole = AccessDefinition['roles'][number];
/** What the definitions said of a role when they were last applied (table `role_seed`). */
type Seeded = Pick<
  DefaultRole,
  'name' | 'scope' | 'permissions' | 'readOnlyFields' | 'hiddenFields' | 'mayGrantRoles' | 'description'
>;

export interface RoleSyncTarget {
  db: Queryable;
  store: Pick<EntityStore, 'create' | 'update'>;
  roleEntity: string;
  /** The role entity's table and the column of its `/code`. */
  table: string;
  codeColumn: string;
  actor: Actor;
}

export interface RoleSyncResult {
  created: string[];
  changed: string[];
}

/** JSON with object keys sorted: jsonb does not keep the key order the definitions were written in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
/**
 * An empty list is what the Roles screen's form saves for a list nobody filled in: the same as
 * none, so that saving a role there does not make later definitions of that list look like
 * an administrator's choice.
 */
const orNone = (value: unknown): unknown => (Array.isArray(value) && value.length === 0 ? undefined : value);
const same = (a: unknown, b: unknown): boolean => canonical(orNone(a)) === canonical(orNone(b));
const seededOf = (role: DefaultRole): Seeded => ({
  name: role.name,
  scope: role.scope,
  permissions: [...role.permissions],
  ...(role.readOnlyFields ? { readOnlyFields: role.readOnlyFields } : {}),
  ...(role.hiddenFields ? { hiddenFields: role.hiddenFields } : {}),
  ...(role.mayGrantRoles ? { mayGrantRoles: [...role.mayGrantRoles] } : {}),
  ...(role.description ? { description: role.description } : {}),
});

/**
 * Applies the default roles of `schemas/_access/access.json` on every start, so that a pull
 * request that changes a role reaches installations that exist already — without undoing what
 * administrators changed on the Roles screen. Only the difference between the definitions last
 * applied (kept in `role_seed`) and the current ones is applied: a permission the definitions
 * added is added, one they withdrew is removed, and the scope, name, description, read-only and
 * hidden fields follow the definitions only while the stored value is still the one last applied. A
 * permission an administrator added or removed by hand stays as they left it. A missing role is
 * created. A role stored before `role_seed` existed gets only the permissions it lacks.
 * Every change goes through the store (validated, audited) as the given actor.
 */
export async function syncDefaultRoles(target: RoleSyncTarget, roles: DefaultRole[]): Promise<RoleSyncResult> {
  const { db, store, roleEntity, table, codeColumn, actor } = target;
  const result: RoleSyncResult = { created: [], changed: [] };
  for (const role of roles) {
    const wanted = seededOf(role);
    const stored = await db.query<{ id: number; version: number; data: Record<string, unknown> }>(
      `SELECT id, version, data FROM ${table} WHERE ${codeColumn} = $1`,
      [role.code],
    );
    const row = stored.rows[0];
    if (!row) {
      await store.create(roleEntity, { code: role.code, ...wanted }, actor);
      result.created.push(role.code);
    } else {
      const last = (await db.query<{ seeded: Seeded }>('SELECT seeded FROM role_seed WHERE code = $1', [role.code]))
        .rows[0]?.seeded;
      // Before role_seed existed nothing says what an administrator changed: add what is missing only.
      const base: Seeded = last ?? { ...wanted, permissions: [] };
      const current = row.data;
      const had = Array.isArray(current.permissions) ? (current.permissions as string[]) : [];
      const withdrawn = new Set(base.permissions.filter((p) => !wanted.permissions.includes(p)));
      const added = wanted.permissions.filter((p) => !base.permissions.includes(p) && !had.includes(p));
      const next: Record<string, unknown> = {
        ...current,
        permissions: [...had.filter((p) => !withdrawn.has(p)), ...added],
      };
      for (const key of ['name', 'scope', 'readOnlyFields', 'hiddenFields', 'mayGrantRoles', 'description'] as const) {
        if (!same(current[key], base[key]) || same(current[key], wanted[key])) continue;
        if (wanted[key] === undefined) delete next[key];
        else next[key] = wanted[key];
      }
      if (!same(next, current)) {
        await store.update(roleEntity, Number(row.id), { ...next, version: row.version }, actor);
        result.changed.push(role.code);
      }
    }
    await db.query(
      `INSERT INTO role_seed (code, seeded) VALUES ($1, $2::jsonb)
       ON CONFLICT (code) DO UPDATE SET seeded = EXCLUDED.seeded, applied_at = now()`,
      [role.code, JSON.stringify(wanted)],
    );
  }
  return result;
}
