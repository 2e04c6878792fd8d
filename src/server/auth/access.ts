import type { AccessDefinition } from '../../generated/meta.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import {
  abilityOfRoles,
  createAbility,
  rulesFromPermissions,
  type AbilityRule,
  type HiddenFields,
  type PortalAbility,
  type ReadOnlyFields,
} from '../../shared/ability.ts';
import { sqlText, valueAt } from '../../shared/pointer.ts';

export type RowScope = 'OWN' | 'REGION' | 'ALL';

/** Who is acting and what they may do; built once per request from the token. */
export interface Actor {
  /** User id, or null for an anonymous visitor. */
  id: string | null;
  username: string | null;
  isOuter: boolean;
  region: number | null;
  scope: RowScope;
  permissions: string[];
  /** The codes of the user's roles (edit rules may name one: `role:<code>`). */
  roles: readonly string[];
  /**
   * The server's own write (seeding, sweeps, a stamp, a photo one uploads for oneself), whose
   * fields the server chose: not bound by the entities' edit rules, which govern what people
   * change through updates and deletes. Never set for a request's own actor.
   */
  trusted?: boolean;
  /**
   * CASL field rules (sign-in returns them): "cannot update Subject fields" from the roles'
   * read-only fields, "cannot read Subject fields" from their hidden fields.
   */
  fieldRules: AbilityRule[];
  ability: PortalAbility;
  /**
   * Further narrowing of the rows of some entities (by entity id), on top of the scope: the
   * delegated user administration (auth/delegation.ts) limits a holder of `mayGrantRoles` to
   * the users they may manage. Reads skip other rows, and a write must leave the record within
   * the limit (store/row-limits.ts).
   */
  rowLimits?: Record<string, RowLimit>;
  /**
   * The user's identifiers by user-record pointer (e.g. `{"/pinfl": "3120…"}`): rows whose
   * manifest `scope.recipients` match one of them are addressed to this user.
   */
  identifiers?: Readonly<Record<string, string>>;
  /**
   * The user's own unit: the department of their staff card (access.json
   * `unitPermissions.employeeUnitField`), for filters of kind `myUnit`; absent without one.
   */
  unit?: number | null;
}

/** A condition on an entity's rows, as SQL over its table and as a test of one record's data. */
export interface RowLimit {
  /** The SQL condition over the table's `data` column; `param` adds a query parameter and returns its placeholder. */
  sql(param: (v: unknown) => string): string;
  /** Whether a record's data is within the limit (the same rule as `sql`). */
  test(data: Record<string, unknown>): boolean;
}

const WIDTH: Record<RowScope, number> = { OWN: 0, REGION: 1, ALL: 2 };

/**
 * The roles an outer (self-registered) user gets: a business (legal-entity) user those of
 * `outerRolesYur` when access.json names them, anyone else `outerRoles`. Registration and demo
 * mode both create outer users with it.
 * @example outerUserRoles(access, true) // ['business']
 */
export function outerUserRoles(access: AccessDefinition, isBusiness: boolean): string[] {
  return isBusiness ? (access.outerRolesYur ?? access.outerRoles) : access.outerRoles;
}

/** An anonymous visitor: only what the access definition grants guests. */
export function guestActor(access: AccessDefinition | undefined): Actor {
  const permissions = access?.guest.permissions ?? [];
  return {
    id: null,
    username: null,
    isOuter: true,
    region: null,
    scope: 'OWN',
    permissions,
    roles: [],
    fieldRules: [],
    ability: createAbility(rulesFromPermissions(permissions)),
  };
}

/** Everything, for the server's own work (seeding, sweeps) — never for a request. */
export function systemActor(): Actor {
  return {
    id: null,
    username: 'system',
    isOuter: false,
    region: null,
    scope: 'ALL',
    permissions: ['manage all'],
    roles: [],
    trusted: true,
    fieldRules: [],
    ability: createAbility([{ action: 'manage', subject: 'all' }]),
  };
}

/**
 * A signed-in user's actor: the union of their roles' permissions, the read-only and the
 * hidden fields all their roles agree on (see `fieldRulesOf`), and the widest of their roles' scopes — except that outer users
 * (citizens, businesses) always see only their own.
 */
export function userActor(
  user: { id: string; username: string; isOuter: boolean; regionId?: number | null; roles?: readonly string[] },
  roles: Array<{
    scope: RowScope;
    permissions: string[];
    readOnlyFields?: ReadOnlyFields[];
    hiddenFields?: HiddenFields[];
  }>,
  identifiers: Readonly<Record<string, string>> = {},
): Actor {
  const { permissions, fieldRules, ability } = abilityOfRoles(roles);
  const widest = roles.reduce<RowScope>((acc, r) => (WIDTH[r.scope] > WIDTH[acc] ? r.scope : acc), 'OWN');
  return {
    id: user.id,
    username: user.username,
    isOuter: user.isOuter,
    region: user.regionId ?? null,
    scope: user.isOuter ? 'OWN' : widest,
    permissions,
    roles: [...(user.roles ?? [])],
    fieldRules,
    ability,
    identifiers,
  };
}

/** The manifest's recipient rules the actor has an identifier for (a user without a PINFL is nobody's recipient by PINFL). */
function recipientRules(actor: Actor, def: EntityDefinition): Array<{ field: string; value: string }> {
  if (actor.id === null) return [];
  return (def.manifest.scope?.recipients ?? []).flatMap((r) => {
    const value = actor.identifiers?.[r.userField];
    return value ? [{ field: r.field, value }] : [];
  });
}

/** Whether a row's data names the actor as a recipient (manifest `scope.recipients`). */
export function isRecipient(actor: Actor, def: EntityDefinition, data: Record<string, unknown>): boolean {
  return recipientRules(actor, def).some((r) => valueAt(data, r.field) === r.value);
}

/**
 * The rows of an entity an actor may see, as SQL over the entity's table: OWN → rows they
 * created, or addressed to them (manifest `scope.recipients`); REGION → rows of their region,
 * where the entity has a region at all (entities without one are shared registries); ALL →
 * everything.
 */
export function rowScope(actor: Actor, def: EntityDefinition, param: (v: unknown) => string): string | undefined {
  const limit = actor.rowLimits?.[def.id]?.sql(param);
  const scope = widthScope(actor, def, param);
  return scope && limit ? `${scope} AND (${limit})` : (scope ?? (limit ? `(${limit})` : undefined));
}

/** The scope part of `rowScope` (without the row limits). */
function widthScope(actor: Actor, def: EntityDefinition, param: (v: unknown) => string): string | undefined {
  if (actor.scope === 'ALL') return undefined;
  if (actor.scope === 'REGION') return def.manifest.scope?.regionField ? `region = ${param(actor.region)}` : undefined;
  if (actor.id === null) return 'FALSE';
  // `#>>` reads a nested field (`/pharmacy/stir` → data #>> '{pharmacy,stir}') as text.
  const addressed = recipientRules(actor, def).map((r) => `${sqlText(r.field)} = ${param(r.value)}`);
  const own = `owner = ${param(actor.id)}`;
  return addressed.length ? `(${[own, ...addressed].join(' OR ')})` : own;
}

/** Whether one stored row is within the actor's scope and row limits (the same rule as `rowScope`). */
export function rowVisible(
  actor: Actor,
  def: EntityDefinition,
  row: { owner: string | null; region?: number | null; data?: Record<string, unknown> },
): boolean {
  const limit = actor.rowLimits?.[def.id];
  if (limit && !limit.test(row.data ?? {})) return false;
  if (actor.scope === 'ALL') return true;
  if (actor.scope === 'REGION') return !def.manifest.scope?.regionField || row.region === actor.region;
  return actor.id !== null && (row.owner === actor.id || (row.data !== undefined && isRecipient(actor, def, row.data)));
}
