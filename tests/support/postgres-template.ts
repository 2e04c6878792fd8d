/**
 * One migrated PostgreSQL database per test run, copied into every PostgreSQL test app
 * (`startTestApp`, `startPortal`): migrating an empty database costs each app a second or
 * more on a loaded 2-core machine, while `CREATE DATABASE … TEMPLATE` copies a migrated one
 * in a fraction of that. The app still migrates on start (idempotently: nothing is applied
 * again) and seeds as usual, so a test sees what a fresh app gives it — as with the PGlite
 * image (tests/support/pglite-image.ts), made the same way, by the first file that asks.
 * With `TEST_DB_IMAGE=0`, or when making it fails, every database starts empty, as before.
 */
import pg from 'pg';
import { inject } from 'vitest';
import { oncePerRun } from './once-per-run.ts';

const NAME = 'postgres-template';
let cached: Promise<string | undefined> | undefined;

/** The name of the run's migrated template database, or undefined when there is none. */
export function postgresTemplate(): Promise<string | undefined> {
  cached ??= load();
  return cached;
}

/** The template's name, from the run's directory (one cluster per run, one template in it). */
const templateName = (): string =>
  `tpl_${String(inject('testRunDir') ?? '')
    .replace(/[^a-z0-9]/gi, '')
    .slice(-12)
    .toLowerCase()}`;

async function load(): Promise<string | undefined> {
  if (process.env.TEST_DB_IMAGE === '0') return undefined;
  const admin = inject('postgresUrl');
  if (!admin) return undefined;
  const name = templateName();
  const made = await oncePerRun(NAME, async () => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    const { prepareDatabase } = await import('../../src/server/app.ts');
    await prepareDatabase({ databaseUrl: admin.replace(/\/postgres$/, `/${name}`) });
  });
  return made ? name : undefined;
}
