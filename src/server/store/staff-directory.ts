import type { Queryable } from '../db/database.ts';
import type { DefinitionRegistry } from '../../definitions/registry.ts';
import type { EntityTable } from '../db/entity-table.ts';
import { sqlText } from '../../shared/pointer.ts';
import { cardAllowsLoginSql, staffNameSql, staffUserWhere, userFieldSql } from '../auth/user-directory.ts';

/** A staff user as the picker lists them: the user id, "Last First Middle", the unit. */
export interface StaffUser {
  id: number;
  name: string;
  unit: string | null;
}

/** The staff users behind `staffUser` fields: who they are, and whether an id is one. */
export interface StaffDirectory {
  /** Staff users whose name (or position, e-mail…) contains `text`, by name; at most `limit`. */
  search(text: string, limit: number): Promise<StaffUser[]>;
  /** The staff users of these ids (unknown or non-staff ids are left out). */
  byIds(ids: number[], on?: Queryable): Promise<StaffUser[]>;
}

/**
 * The staff directory over access.json's entities: a staff user is a user (`userEntity`) who
 * is not an outer user and may sign in; their name comes from their staff card
 * (`employeeEntity`, linked by `employeeUserField` or by the user's `employeeId`) when there
 * is one, else from the user, and the unit from the card's unit
 * (`unitPermissions.employeeUnitField` → `unitEntity`, by its labelField). A card that may
 * not sign in (`canLogin` false) hides its user. No entity is named here: access.json says which.
 * @example await createStaffDirectory(db, registry, tables)?.search('karim', 20)
 */
export function createStaffDirectory(
  db: Queryable,
  registry: DefinitionRegistry,
  tables: Map<string, EntityTable>,
): StaffDirectory | undefined {
  const access = registry.access;
  const users = access ? tables.get(access.userEntity) : undefined;
  if (!access || !users) return undefined;
  const cards = access.employeeEntity ? tables.get(access.employeeEntity) : undefined;
  const unitField = access.unitPermissions?.employeeUnitField;
  const unitEntity = access.unitPermissions?.unitEntity;
  const units = unitEntity ? tables.get(unitEntity) : undefined;
  const unitLabel = unitEntity ? registry.entities.get(unitEntity)?.manifest.labelField : undefined;

  const cardJoin = cards
    ? `LEFT JOIN LATERAL (SELECT c.data FROM ${cards.table} c
         WHERE ${access.employeeUserField ? `${sqlText(access.employeeUserField, 'c.data')} = u.id::text OR ` : ''}c.id::text = ${userFieldSql('employeeId', 'u')}
         ORDER BY c.id LIMIT 1) card ON true`
    : 'LEFT JOIN LATERAL (SELECT NULL::jsonb AS data) card ON true';
  const unitJoin =
    cards && units && unitField && unitLabel
      ? `LEFT JOIN ${units.table} unit ON unit.id::text = ${sqlText(unitField, 'card.data')}`
      : '';
  const unit = unitJoin ? sqlText(unitLabel!, 'unit.data') : 'NULL';
  const name = staffNameSql('u', 'card.data');
  const staff = `${staffUserWhere('u')}
    AND ${cardAllowsLoginSql('card.data')}`;
  const select = (where: string, tail: string) =>
    `SELECT u.id::int AS id, ${name} AS name, ${unit} AS unit
       FROM ${users.table} u ${cardJoin} ${unitJoin}
      WHERE ${staff} AND ${where} ${tail}`;

  return {
    async search(text, limit) {
      const needle = `%${text
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      const { rows } = await db.query<StaffUser>(
        select(
          `(lower(${name}) LIKE $1 OR lower(coalesce(${unit}, '')) LIKE $1 OR lower(${userFieldSql('username', 'u')}) LIKE $1)`,
          'ORDER BY 2, 1 LIMIT $2',
        ),
        [needle, limit],
      );
      return rows;
    },
    async byIds(ids, on = db) {
      if (!ids.length) return [];
      const { rows } = await on.query<StaffUser>(select('u.id = ANY($1::bigint[])', 'ORDER BY 1'), [ids]);
      return rows;
    },
  };
}
