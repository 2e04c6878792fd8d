import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database.ts';

/**
 * User records as registration and password reset look them up: by the user entity's
 * fields, through the typed column where the definition derives one.
 */
export function createUserLookup(app: FastifyInstance) {
  const access = app.definitions.access!;
  const table = app.tables.get(access.userEntity)!;
  const expr = (pointer: string): string => table.columns.get(pointer)?.column ?? `data->>'${pointer.slice(1).replace(/'/g, "''")}'`;
  return {
    table: table.table,
    expr,
    /**
     * Whether a user has exactly this value at `pointer` (the unique fields' patterns fix their
     * case: lower-case usernames, upper-case passport series), so their indexes answer.
     */
    async taken(pointer: string, value: string, tx: Queryable = app.db): Promise<boolean> {
      const { rows } = await tx.query(`SELECT 1 FROM ${table.table} WHERE ${expr(pointer)} = $1 LIMIT 1`, [value]);
      return rows.length > 0;
    },
  };
}
