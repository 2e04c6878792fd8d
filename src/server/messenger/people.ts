/**
 * The people of the messenger as it reads them from the user entity's table: name, photo, roles
 * and whether they are staff (not an outer user, may sign in).
 */
import type { Queryable } from '../db/database.ts';

/** How the messenger reads users: staff only, from the user entity's table. */
export interface UserSource {
  table: string;
}

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

/** The user `id` from the user entity's table `usersTable`; undefined when there is none. */
export async function readPerson(db: Queryable, usersTable: string, id: string): Promise<Person | undefined> {
  if (!/^\d{1,15}$/.test(id)) return undefined;
  const { rows } = await db.query<{
    data: {
      firstName?: string;
      lastName?: string;
      photo?: string[];
      roles?: string[];
      isOuter?: boolean;
      canLogin?: boolean;
    };
  }>(`SELECT data FROM ${usersTable} WHERE id = $1`, [Number(id)]);
  const d = rows[0]?.data;
  if (!d) return undefined;
  return {
    id,
    firstName: d.firstName ?? '',
    lastName: d.lastName ?? '',
    photo: d.photo?.[0] ?? null,
    roles: d.roles ?? [],
    isOuter: d.isOuter ?? true,
    canLogin: d.canLogin ?? false,
  };
}
