import type { DefinitionRegistry } from '../../definitions/registry.ts';
import type { EntityTable } from '../db/entity-table.ts';
import type { Queryable } from '../db/database.ts';
import { sqlJson, sqlText, valueAt } from '../../shared/pointer.ts';

/**
 * The user entity's fields the server reads by name (schemas of access.json's `userEntity`):
 * named here once, so the SQL below is the only place that knows them.
 */
const FIELD = {
  username: '/username',
  firstName: '/firstName',
  lastName: '/lastName',
  middleName: '/middleName',
  roles: '/roles',
  isOuter: '/isOuter',
  canLogin: '/canLogin',
  canRegister: '/canRegister',
  employeeId: '/employeeId',
  photo: '/photo',
} as const;

/** The data column of the user row `alias` (bare `data` without one). */
const dataOf = (alias?: string): string => (alias ? `${alias}.data` : 'data');

/** SQL of one user field as text, of the user row `alias`. */
export const userFieldSql = (field: keyof typeof FIELD, alias?: string): string => sqlText(FIELD[field], dataOf(alias));

/** SQL that holds when the user row `alias` has the role given by the SQL `param` (e.g. `$1`). */
export const hasRoleSql = (alias: string, param: string): string => `${sqlJson(FIELD.roles, dataOf(alias))} ? ${param}`;

/** SQL of the user row `alias`'s photo file id (the first of its photo field), or null. */
export const photoIdSql = (alias: string): string => sqlText(`${FIELD.photo}/0`, dataOf(alias));

/** SQL of a user's name as the messenger shows and searches it: "last first", trimmed. */
export const messengerNameSql = (alias: string): string =>
  `trim(coalesce(${userFieldSql('lastName', alias)},'') || ' ' || coalesce(${userFieldSql('firstName', alias)},''))`;

/**
 * SQL of a staff user's name, "last first middle", each part from their staff card's data
 * (the SQL `card`, e.g. `card.data`) when set there, else the user's; else the username.
 */
export const staffNameSql = (alias: string, card: string): string => {
  const part = (field: 'lastName' | 'firstName' | 'middleName') =>
    `coalesce(nullif(${sqlText(FIELD[field], card)}, ''), ${userFieldSql(field, alias)})`;
  return `coalesce(nullif(trim(concat_ws(' ', ${part('lastName')}, ${part('firstName')}, ${part('middleName')})), ''), ${userFieldSql('username', alias)})`;
};

/** SQL that holds unless the staff card's data (the SQL `card`) says its person may not sign in. */
export const cardAllowsLoginSql = (card: string): string =>
  `coalesce((${sqlText(FIELD.canLogin, card)})::boolean, true)`;

/**
 * SQL that holds for a user (bare `data`) a delegate may administer: roles a non-empty array
 * within the SQL jsonb array `granted`, staff (not outer), may not register others, and not
 * linked to a staff card. {@link isDelegableUser} is the same test on a record's data.
 */
export const delegableUserSql = (granted: string): string => {
  const roles = sqlJson(FIELD.roles);
  return [
    `jsonb_typeof(${roles}) = 'array'`,
    `jsonb_array_length(${roles}) > 0`,
    `${roles} <@ ${granted}::jsonb`,
    `coalesce(${sqlJson(FIELD.isOuter)}, 'false'::jsonb) <> 'true'::jsonb`,
    `coalesce(${sqlJson(FIELD.canRegister)}, 'false'::jsonb) <> 'true'::jsonb`,
    `${sqlJson(FIELD.employeeId)} IS NULL`,
  ].join(' AND ');
};

/** Whether a user's record data passes {@link delegableUserSql} with these granted roles. */
export const isDelegableUser = (data: Record<string, unknown>, granted: readonly string[]): boolean => {
  const roles = valueAt(data, FIELD.roles);
  return (
    Array.isArray(roles) &&
    roles.length > 0 &&
    roles.every((r) => typeof r === 'string' && granted.includes(r)) &&
    valueAt(data, FIELD.isOuter) !== true &&
    valueAt(data, FIELD.canRegister) !== true &&
    valueAt(data, FIELD.employeeId) === undefined
  );
};

/** A user as the messenger shows them. */
export interface Person {
  id: string;
  firstName: string;
  lastName: string;
  photo: string | null;
  roles: string[];
  isOuter: boolean;
  canLogin: boolean;
}

/**
 * SQL that holds for a staff user — not an outer user, may sign in — of the user row `alias`
 * (bare `data` without one).
 * @example `SELECT id FROM ${users.table} u WHERE ${staffUserWhere('u')}`
 */
export const staffUserWhere = (alias?: string): string => {
  const data = alias ? `${alias}.data` : 'data';
  return `coalesce((${data}->>'isOuter')::boolean, true) = false AND coalesce((${data}->>'canLogin')::boolean, false)`;
};

/** SQL of a user's shown name — "last first", else the username — of the user row `alias`. */
export const userNameSql = (alias: string): string =>
  `coalesce(nullif(trim(concat_ws(' ', ${alias}.data->>'lastName', ${alias}.data->>'firstName')), ''), ${alias}.data->>'username')`;

/** A user account a sign-in or reset looks up: its id and record data. */
export interface UserRow<D = Record<string, unknown>> {
  id: number;
  data: D;
}

/**
 * The user directory: the one place that reads the user entity's fields and the credential
 * table as SQL. Which entity holds users comes from schemas/_access/access.json
 * (`userEntity`), never from a name written here; a field is read through its typed column
 * where the definition derives one (indexed), else from `data`.
 * @example const users = createUserDirectory(db, tables, access); await users.idByUsername('admin')
 */
export function createUserDirectory(
  db: Queryable,
  tables: Map<string, EntityTable>,
  access: NonNullable<DefinitionRegistry['access']>,
) {
  const table = tables.get(access.userEntity)!;
  /** SQL of one user field as text: the typed column where there is one. */
  const expr = (pointer: string, alias?: string): string => {
    const column = table.columns.get(pointer)?.column;
    if (column) return alias ? `${alias}.${column}` : column;
    return sqlText(pointer, alias ? `${alias}.data` : 'data');
  };
  const upsertCredential = `INSERT INTO credential (user_id, password_hash) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()`;
  return {
    /** The entity id of users (access.json `userEntity`). */
    entity: access.userEntity,
    /** The users' table name. */
    table: table.table,
    expr,
    /** Whether the definition derives a typed (indexed) column for this user field. */
    hasColumn: (pointer: string): boolean => table.columns.has(pointer),
    staffWhere: staffUserWhere,
    userNameSql,
    userFieldSql,
    hasRoleSql,
    photoIdSql,
    messengerNameSql,
    staffNameSql,
    /**
     * Whether a user has exactly this value at `pointer` (the unique fields' patterns fix their
     * case: lower-case usernames, upper-case passport series), so their indexes answer.
     */
    async taken(pointer: string, value: string, tx: Queryable = db): Promise<boolean> {
      const { rows } = await tx.query(`SELECT 1 FROM ${table.table} WHERE ${expr(pointer)} = $1 LIMIT 1`, [value]);
      return rows.length > 0;
    },
    /** The id of the user with this username, if any. */
    async idByUsername(username: string): Promise<number | undefined> {
      const { rows } = await db.query<{ id: number }>(`SELECT id FROM ${table.table} WHERE ${expr('/username')} = $1`, [
        username,
      ]);
      return rows[0] ? Number(rows[0].id) : undefined;
    },
    /** The user `id` as the messenger shows them; undefined when there is none (or `id` is not one). */
    async person(id: string, tx: Queryable = db): Promise<Person | undefined> {
      if (!/^\d{1,15}$/.test(id)) return undefined;
      const { rows } = await tx.query<{ data: Record<string, unknown> }>(
        `SELECT data FROM ${table.table} WHERE id = $1`,
        [Number(id)],
      );
      const d = rows[0]?.data;
      if (!d) return undefined;
      const text = (field: keyof typeof FIELD) => (valueAt(d, FIELD[field]) as string | undefined) ?? '';
      return {
        id,
        firstName: text('firstName'),
        lastName: text('lastName'),
        photo: (valueAt(d, FIELD.photo) as string[] | undefined)?.[0] ?? null,
        roles: (valueAt(d, FIELD.roles) as string[] | undefined) ?? [],
        isOuter: (valueAt(d, FIELD.isOuter) as boolean | undefined) ?? true,
        canLogin: (valueAt(d, FIELD.canLogin) as boolean | undefined) ?? false,
      };
    },
    /** A user's record data and status, if the user exists. */
    async byId<D = Record<string, unknown>>(
      id: number,
      tx: Queryable = db,
    ): Promise<{ data: D; status: string } | undefined> {
      const { rows } = await tx.query<{ data: D; status: string }>(
        `SELECT data, status FROM ${table.table} WHERE id = $1`,
        [id],
      );
      return rows[0];
    },
    /** The first user whose field at `pointer` is `value` (by id), if any. */
    async findBy<D = Record<string, unknown>>(pointer: string, value: string): Promise<UserRow<D> | undefined> {
      const { rows } = await db.query<UserRow<D>>(
        `SELECT id, data FROM ${table.table} WHERE ${expr(pointer)} = $1 ORDER BY id LIMIT 1`,
        [value],
      );
      return rows[0];
    },
    /** A user by username with their password hash (null without a password), for sign-in. */
    async withPasswordHash<D = Record<string, unknown>>(
      username: string,
    ): Promise<(UserRow<D> & { hash: string | null }) | undefined> {
      const { rows } = await db.query<UserRow<D> & { hash: string | null }>(
        `SELECT u.id, u.data, c.password_hash AS hash FROM ${table.table} u LEFT JOIN credential c ON c.user_id = u.id::text WHERE ${expr('/username', 'u')} = $1`,
        [username],
      );
      return rows[0];
    },
    /**
     * The account a password-reset login names — username, e-mail (any case) or phone digits —
     * with where a code can go.
     */
    async forReset(
      login: string,
      phoneDigits: string | null,
    ): Promise<{ id: number; email: string | null; phone: string | null; can_login: boolean } | undefined> {
      const digits = `regexp_replace(coalesce(${expr('/phone')}, ''), '[^0-9]', '', 'g')`;
      const { rows } = await db.query<{ id: number; email: string | null; phone: string | null; can_login: boolean }>(
        `SELECT id, ${expr('/email')} AS email, ${expr('/phone')} AS phone, coalesce((data->>'canLogin')::boolean, false) AS can_login
         FROM ${table.table}
         WHERE ${expr('/username')} = $1 OR lower(${expr('/email')}) = lower($1) OR ($2::text IS NOT NULL AND ${digits} = $2)
         ORDER BY id LIMIT 1`,
        [login, phoneDigits],
      );
      return rows[0];
    },
    /** A user's password hash, if they have a password. */
    async passwordHash(userId: string): Promise<string | undefined> {
      const { rows } = await db.query<{ password_hash: string }>(
        'SELECT password_hash FROM credential WHERE user_id = $1',
        [userId],
      );
      return rows[0]?.password_hash;
    },
    /** Gives a new user their first password (fails if they have one). */
    async addPassword(userId: string, hash: string, tx: Queryable = db): Promise<void> {
      await tx.query('INSERT INTO credential (user_id, password_hash) VALUES ($1, $2)', [userId, hash]);
    },
    /** Sets a user's password, replacing any. */
    async setPassword(userId: string, hash: string, tx: Queryable = db): Promise<void> {
      await tx.query(upsertCredential, [userId, hash]);
    },
    /** Replaces the password of a user who has one. */
    async changePassword(userId: string, hash: string, tx: Queryable = db): Promise<void> {
      await tx.query('UPDATE credential SET password_hash = $2, updated_at = now() WHERE user_id = $1', [userId, hash]);
    },
  };
}

/** The user directory (see createUserDirectory). */
export type UserDirectory = ReturnType<typeof createUserDirectory>;
