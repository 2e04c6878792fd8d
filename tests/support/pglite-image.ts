/**
 * One migrated PGlite per test run, copied into every in-memory test app (`startTestApp`,
 * `startPortal`): migrating an empty PGlite costs each app several seconds on a loaded 2-core
 * machine — most of a contract file's start-up, twice per file — while loading an archived
 * data directory costs a fraction of that. The app still migrates on start (idempotently: the
 * derived DDL is recorded, nothing is applied again) and seeds as usual, so a test sees what a
 * fresh app gives it.
 *
 * The image is made lazily by the first test file that asks (a run of unit tests never pays
 * for it): the global setup only names an empty directory (`pgliteImageDir`); the first asker
 * takes a lock there (an atomic mkdir), migrates a PGlite on disk with the app's own start-up
 * (`prepareDatabase`), archives it and renames the archive into place; other askers wait for
 * that file. A failed build leaves a note and every app starts empty, as before; so does
 * `TEST_PGLITE_IMAGE=0`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An empty directory where the first asker puts the run's migrated PGlite (pglite-image.ts). */
    pgliteImageDir: string | null;
  }
}

const IMAGE = 'migrated.tar';
const FAILED = 'failed.txt';
let cached: Promise<Blob | undefined> | undefined;

/**
 * The run's migrated PGlite data directory as an archive for `buildApp({pgliteImage})`, or
 * undefined when there is none (no global setup, or building it failed).
 */
export function pgliteImage(): Promise<Blob | undefined> {
  cached ??= load();
  return cached;
}

async function load(): Promise<Blob | undefined> {
  // TEST_PGLITE_IMAGE=0: every app migrates its own, as before (to compare, or to rule the image out).
  if (process.env.TEST_PGLITE_IMAGE === '0') return undefined;
  let dir: string | null | undefined;
  try {
    dir = inject('pgliteImageDir');
  } catch {
    return undefined; // outside a vitest worker
  }
  if (!dir) return undefined;
  const image = path.join(dir, IMAGE);
  const failed = path.join(dir, FAILED);
  try {
    mkdirSync(path.join(dir, 'lock'));
  } catch {
    // Another file is building it: wait for the archive (or the note that it failed; a builder
    // killed half-way leaves neither, hence the 10 minutes' cap).
    const until = Date.now() + 600_000;
    while (!existsSync(image) && !existsSync(failed) && Date.now() < until) await sleep(100);
    return existsSync(image) ? new Blob([readFileSync(image)]) : undefined;
  }
  try {
    const blob = await build(path.join(dir, 'build'));
    const partial = path.join(dir, `${IMAGE}.partial`);
    writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
    renameSync(partial, image);
    return blob;
  } catch (error) {
    writeFileSync(failed, String((error as Error)?.stack ?? error));
    console.warn(`[tests] no migrated PGlite image, each app migrates its own: ${(error as Error)?.message}`);
    return undefined;
  }
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
