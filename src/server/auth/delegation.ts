import { createAbility, rulesFromPermissions, type AbilityRule } from '../../shared/ability.ts';
import type { Actor, RowLimit } from './access.ts';
import { delegableUserSql, isDelegableUser } from './user-directory.ts';
import { valueAt } from '../../shared/pointer.ts';

/** The user entity as access.json names it: its id, CASL subject and region field. */
export interface DelegationTarget {
  entity: string;
  subject: string;
  /** The JSON pointer of the user's region (the manifest's scope.regionField), if any. */
  regionField?: string;
}

/** The CRUD actions a delegate gets on the user subject — not delete: a monitor is disabled, not erased. */
const DELEGATED_ACTIONS = ['read', 'create', 'update'] as const;

/** The marker permission the session carries for the delegated screens, e.g. "delegate User". */
export const delegationPermission = (subject: string): string => `delegate ${subject}`;

/**
 * Delegated user administration (access.json role `mayGrantRoles`): an actor whose roles may
 * grant some roles gets read, create and update on the user subject, limited by a row limit to
 * the users whose roles are all grantable (at least one), who are staff (not outer), may not
 * register others, are not linked to a staff card (a card's unit brings its own permissions)
 * and — for a REGION-scoped actor — are in the actor's region. The same limit is the test every
 * written record must pass, so a delegate can neither grant another role nor move a user out
 * of reach (mass assignment). An actor who may already update users (an administrator) is
 * returned unchanged: they need no delegation.
 * @example withDelegation(actor, ['monitor'], { entity: 'user', subject: 'User', regionField: '/regionId' })
 */
export function withDelegation(actor: Actor, grantable: readonly string[], target: DelegationTarget): Actor {
  const granted = [...new Set(grantable)].sort();
  if (!granted.length || actor.isOuter || actor.ability.can('update', target.subject)) return actor;
  const region = actor.region;
  const regionField = target.regionField;
  const limitsRegion = actor.scope === 'REGION' && regionField !== undefined;
  const limit: RowLimit = {
    sql: (param) => delegableUserSql(param(JSON.stringify(granted))),
    test: (data) =>
      isDelegableUser(data, granted) && (!limitsRegion || (region !== null && valueAt(data, regionField) === region)),
  };
  const permissions = [...new Set([...actor.permissions, delegationPermission(target.subject)])].sort();
  const rules: AbilityRule[] = [
    ...rulesFromPermissions(actor.permissions),
    ...DELEGATED_ACTIONS.map((action) => ({ action, subject: target.subject })),
    ...actor.fieldRules,
  ];
  return {
    ...actor,
    // The session lists the marker, not read/create/update User: the administrators' user
    // screens stay closed, the delegated screens (permission "delegate User") open.
    permissions,
    ability: createAbility([...rules, ...rulesFromPermissions([delegationPermission(target.subject)])]),
    rowLimits: { ...actor.rowLimits, [target.entity]: limit },
  };
}
