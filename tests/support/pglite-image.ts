/**
 * One migrated PGlite per test run, copied into every in-memory test app (`startTestApp`,
 * `startPortal`): migrating an empty PGlite costs each app several seconds on a loaded 2-core
 * machine — most of a contract file's start-up — while loading an archived data directory
 * costs a fraction of that. The app still migrates on start (idempotently: the derived DDL is
 * recorded, nothing is applied again) and seeds as usual, so a test sees what a fresh app
 * gives it.
 *
 * The image is made by the first test file that asks (tests/support/once-per-run.ts): it
 * migrates a PGlite on disk with the app's own start-up (`prepareDatabase`) and archives it.
 * When that fails, or with `TEST_DB_IMAGE=0`, every app starts empty, as before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { oncePerRun, runDir } from './once-per-run.ts';

const NAME = 'pglite-image';
let cached: Promise<Blob | undefined> | undefined;

/**
 * The run's migrated PGlite data directory as an archive for `buildApp({pgliteImage})`, or
 * undefined when there is none.
 */
export function pgliteImage(): Promise<Blob | undefined> {
  cached ??= load();
  return cached;
}

async function load(): Promise<Blob | undefined> {
  // TEST_DB_IMAGE=0: every app migrates its own, as before (to compare, or to rule the image out).
  if (process.env.TEST_DB_IMAGE === '0') return undefined;
  const made = await oncePerRun(NAME, async (dir) => {
    const blob = await build(path.join(dir, `${NAME}.build`));
    writeFileSync(path.join(dir, `${NAME}.tar`), Buffer.from(await blob.arrayBuffer()));
  });
  const dir = runDir();
  return made && dir ? new Blob([readFileSync(path.join(dir, `${NAME}.tar`))]) : undefined;
}

/** Migrates a PGlite on disk under `dataDir` as the app's start-up does, and archives its data directory. */
async function build(dataDir: string): Promise<Blob> {
  const { prepareDatabase } = await import('../../src/server/app.ts');
  await prepareDatabase({ dataDir, inMemory: false });
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const db = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), extensions: { pg_trgm } });
  try {
    return await db.dumpDataDir('none');
  } finally {
    await db.close();
  }
}
