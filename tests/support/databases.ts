import { inject } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';

/** The backends every contract test runs on: PGlite always, PostgreSQL when available. */
export const backends = (): Array<{ name: 'pglite' | 'postgres'; available: boolean }> => [
  { name: 'pglite', available: true },
  { name: 'postgres', available: inject('postgresUrl') !== null },
];

/** A fresh database in the test cluster, dropped by `drop()`. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = inject('postgresUrl');
  if (!admin) throw new Error(`PostgreSQL unavailable: ${inject('postgresSkipReason')}`);
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return {
    url: admin.replace(/\/postgres$/, `/${name}`),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
