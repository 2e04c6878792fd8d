import { inject } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { selectedDatabases, type TestDatabase } from './test-selection.ts';
import { oncePerRun } from './once-per-run.ts';

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

const TEMPLATE = 't_migrated';
let template: Promise<boolean> | undefined;

/**
 * A fresh database in the test cluster, dropped by `drop()`: empty, or with `migrated` a copy
 * of the run's migrated template (`CREATE DATABASE … TEMPLATE`, made once per run by the first
 * file that asks, tests/support/once-per-run.ts) — the app's start-up then finds its tables
 * in place instead of creating them. Without the template (it failed, or `TEST_DB_IMAGE=0`)
 * the database is empty, as before.
 */
export async function createTestDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = inject('postgresUrl');
  if (!admin) throw new Error(`PostgreSQL unavailable: ${inject('postgresSkipReason')}`);
  const name = `t_${randomBytes(6).toString('hex')}`;
  const fromTemplate = options.migrated && (await (template ??= migratedTemplate(admin)));
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    // The template's maker has just closed its connections; the server may take a moment to end them.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name}${fromTemplate ? ` TEMPLATE ${TEMPLATE}` : ''}`);
        break;
      } catch (error) {
        if (attempt >= 40 || !/being accessed by other users/.test(String((error as Error).message))) throw error;
        await new Promise((r) => setTimeout(r, 250));
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

/** Makes the run's migrated template database once (the app's own start-up, `prepareDatabase`). */
async function migratedTemplate(admin: string): Promise<boolean> {
  if (process.env.TEST_DB_IMAGE === '0') return false;
  return oncePerRun('postgres-template', async (dir) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${TEMPLATE}`);
    } finally {
      await client.end();
    }
    const { prepareDatabase } = await import('../../src/server/app.ts');
    await prepareDatabase({ dataDir: dir, databaseUrl: admin.replace(/\/postgres$/, `/${TEMPLATE}`) });
  });
}
