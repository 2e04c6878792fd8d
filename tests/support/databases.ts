import { inject } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { selectedDatabases, type TestDatabase } from './test-selection.ts';

/**
 * The backends every contract test runs on: PGlite always, PostgreSQL when available — limited
 * by TEST_DB (`tests/support/test-selection.ts`). A backend TEST_DB leaves out is not in the list,
 * so its tests are not registered at all (neither run nor reported as skipped).
 */
export const backends = (): Array<{ name: TestDatabase; available: boolean }> =>
  selectedDatabases().map((name) => ({ name, available: name === 'pglite' || postgresAvailable() }));

/**
 * Whether tests that need PostgreSQL itself (two instances on one database…) may run: the
 * cluster is up and TEST_DB selects it.
 */
export const postgresAvailable = (): boolean =>
  selectedDatabases().includes('postgres') && inject('postgresUrl') !== null;

/**
 * A fresh database in the test cluster, dropped by `drop()`: empty, or a copy of `template`
 * (tests/support/postgres-template.ts).
 */
export async function createTestDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = inject('postgresUrl');
  if (!admin) throw new Error(`PostgreSQL unavailable: ${inject('postgresSkipReason')}`);
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
        break;
      } catch (error) {
        // Another file copying the template at the same moment holds it (55006: object in use).
        if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await client.end();
  }
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
