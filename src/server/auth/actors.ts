import type { Database } from '../db/database.ts';
import type { EntityTable } from '../db/entity-table.ts';
import type { DefinitionRegistry } from '../../definitions/registry.ts';
import type { AccessDefinition } from '../../generated/meta.ts';
import type { HiddenFields, ReadOnlyFields } from '../../shared/ability.ts';
import { userActor, type Actor, type RowScope } from './access.ts';
import { withDelegation, type DelegationTarget } from './delegation.ts';
import { sqlJson, sqlText, valueAt } from '../../shared/pointer.ts';
import type { UserDirectory } from './user-directory.ts';

/** A user record's data as sign-in reads it (schemas/_access/access.json `userEntity`). */
export interface UserData {
  username: string;
  firstName: string;
  lastName: string;
  middleName?: string;
  isOuter: boolean;
  canLogin: boolean;
  roles: string[];
  regionId?: number;
  employeeId?: number;
  photo?: string[];
}

/** The fields of a staff card the session reads (access.json `employeeEntity`). */
export interface StaffCardData extends Record<string, unknown> {
  firstName?: string;
  lastName?: string;
  middleName?: string;
  canLogin?: boolean;
}

/** How long a signed-in user's rights are reused before they are read again. */
const ACTOR_CACHE_MS = 10_000;

/** The users' actors: who may sign in, and with which rights (auth/access.ts `Actor`). */
export interface ActorLoader {
  /**
   * The user's actor as a request with their token gets it (roles, unit permissions, field
   * rules, delegation), or undefined when they may not sign in (account or staff card
   * `canLogin` false). Reused for ACTOR_CACHE_MS.
   */
  actorOf(userId: string): Promise<Actor | undefined>;
  /** Drops the user's cached actor: their next request reads their rights again. */
  forget(userId: string): void;
  /** The staff card of a user: the one their employeeId names, else the one whose user field names them. */
  staffCardOf(userId: string, user: UserData): Promise<{ id: number; data: StaffCardData } | undefined>;
  /** Whether a user may sign in: their own flag and, when linked, their staff card's. */
  mayLogin(userId: string, user: UserData): Promise<boolean>;
}

/**
 * Reads users, their staff cards, roles and unit permissions (the entities access.json
 * names) into actors, with a short cache so that a burst of requests reads them once.
 */
export function createActorLoader(
  db: Database,
  registry: DefinitionRegistry,
  tables: Map<string, EntityTable>,
  access: AccessDefinition,
  users: UserDirectory,
): ActorLoader {
  const roleTable = tables.get(access.roleEntity)!;
  const roleCodeColumn = roleTable.columns.get('/code')!.column;
  const userDef = registry.entities.get(access.userEntity)!;
  const delegationTarget: DelegationTarget = {
    entity: access.userEntity,
    subject: userDef.manifest.subject,
    ...(userDef.manifest.scope?.regionField ? { regionField: userDef.manifest.scope.regionField } : {}),
  };
  const employeeTable = access.employeeEntity ? tables.get(access.employeeEntity) : undefined;
  // The card's user field as SQL: its typed, indexed column where the grid filters by it.
  const employeeUserColumn =
    access.employeeUserField && employeeTable
      ? (employeeTable.columns.get(access.employeeUserField)?.column ?? `${sqlText(access.employeeUserField)}::bigint`)
      : undefined;

  const staffCardOf: ActorLoader['staffCardOf'] = async (userId, user) => {
    if (!employeeTable) return undefined;
    const byUser = employeeUserColumn ? `OR ${employeeUserColumn} = $2` : '';
    const { rows } = await db.query<{ id: number; data: StaffCardData }>(
      `SELECT id, data FROM ${employeeTable.table} WHERE id = $1 ${byUser} ORDER BY (id = $1) DESC, id LIMIT 1`,
      employeeUserColumn ? [user.employeeId ?? 0, Number(userId)] : [user.employeeId ?? 0],
    );
    return rows[0] ? { id: Number(rows[0].id), data: rows[0].data } : undefined;
  };

  /**
   * The permissions a staff card's unit brings (access.json `unitPermissions`): those of the
   * records for the unit's type without a unit, and of the records for the unit itself.
   */
  const unitConfig = access.unitPermissions;
  const unitTable = unitConfig ? tables.get(unitConfig.unitEntity) : undefined;
  const grantTable = unitConfig ? tables.get(unitConfig.entity) : undefined;
  const unitPermissionsOf = async (card: StaffCardData | undefined): Promise<string[]> => {
    if (!unitConfig || !unitTable || !grantTable || !card) return [];
    const unitId = valueAt(card, unitConfig.employeeUnitField);
    if (typeof unitId !== 'number') return [];
    const unit = await db.query<{ type: string | null }>(
      `SELECT ${sqlText(unitConfig.unitTypeField)} AS type FROM ${unitTable.table} WHERE id = $1`,
      [unitId],
    );
    const type = unit.rows[0]?.type ?? null;
    const { rows } = await db.query<{ permissions: string[] | null }>(
      `SELECT ${sqlJson(unitConfig.permissionsField)} AS permissions FROM ${grantTable.table}
         WHERE (${sqlText(unitConfig.typeField)} = $1 AND ${sqlText(unitConfig.unitField)} IS NULL)
            OR ${sqlText(unitConfig.unitField)} = $2`,
      [type, String(unitId)],
    );
    return [
      ...new Set(
        rows.flatMap((r) => (Array.isArray(r.permissions) ? r.permissions.filter((p) => typeof p === 'string') : [])),
      ),
    ];
  };

  const cache = new Map<string, { actor: Actor; at: number }>();
  // The user fields that make someone a record's recipient (manifests' scope.recipients).
  const verifiedField = access.identityVerifiedField;
  const recipientUserFields = [
    ...new Set(
      [...registry.entities.values()].flatMap((d) => (d.manifest.scope?.recipients ?? []).map((r) => r.userField)),
    ),
  ];
  const actorOf: ActorLoader['actorOf'] = async (userId) => {
    const hit = cache.get(userId);
    if (hit && Date.now() - hit.at < ACTOR_CACHE_MS) return hit.actor;
    const user = (await users.byId<UserData>(Number(userId)))?.data;
    if (!user?.canLogin) return undefined;
    const card = await staffCardOf(userId, user);
    if (card?.data.canLogin === false) return undefined;
    const roles = await db.query<{
      data: {
        scope: RowScope;
        permissions: string[];
        readOnlyFields?: ReadOnlyFields[];
        hiddenFields?: HiddenFields[];
        mayGrantRoles?: string[];
      };
    }>(`SELECT data FROM ${roleTable.table} WHERE ${roleCodeColumn} = ANY($1::text[])`, [user.roles]);
    const unit = await unitPermissionsOf(card?.data);
    // The unit's permissions add rights, never width: OWN is the narrowest scope, so the roles' wins.
    const grants = [
      ...roles.rows.map((r) => r.data),
      ...(unit.length ? [{ scope: 'OWN' as RowScope, permissions: unit }] : []),
    ];
    const grantable = roles.rows.flatMap((r) => (Array.isArray(r.data.mayGrantRoles) ? r.data.mayGrantRoles : []));
    const own = user as unknown as Record<string, unknown>;
    // Identifiers count only once proven (access.json identityVerifiedField): a typed-in PINFL must not open another person's records.
    const proven = verifiedField !== undefined && valueAt(own, verifiedField) === true;
    const identifiers = proven
      ? Object.fromEntries(
          recipientUserFields.flatMap((f) => {
            const value = valueAt(own, f);
            return typeof value === 'string' && value ? [[f, value]] : [];
          }),
        )
      : {};
    const actor = withDelegation(
      userActor(
        {
          id: userId,
          username: user.username,
          isOuter: user.isOuter,
          regionId: user.regionId ?? null,
          roles: user.roles,
        },
        grants,
        identifiers,
      ),
      grantable,
      delegationTarget,
    );
    const unitId = card && unitConfig ? valueAt(card.data, unitConfig.employeeUnitField) : undefined;
    if (typeof unitId === 'number') actor.unit = unitId;
    cache.set(userId, { actor, at: Date.now() });
    return actor;
  };

  return {
    actorOf,
    forget: (userId) => cache.delete(userId),
    staffCardOf,
    mayLogin: async (userId, user) => user.canLogin && (await staffCardOf(userId, user))?.data.canLogin !== false,
  };
}
