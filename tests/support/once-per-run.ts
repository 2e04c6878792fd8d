/**
 * Something made once per test run and shared by every test file that asks for it (the
 * migrated PGlite image). The global setup names an empty
 * directory for the run (`runDir`); the first file to ask for a thing takes its lock there (an
 * atomic mkdir) and makes it, the others wait for its note — done or failed. Nothing is made
 * for a run that never asks (unit tests only).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An empty directory for what the run makes once (tests/support/once-per-run.ts). */
    testRunDir: string | null;
  }
}

/** The run's directory, or undefined outside a vitest worker or without the global setup. */
export function runDir(): string | undefined {
  try {
    return inject('testRunDir') ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes `name` once per run with `make` (in the run's directory `dir`), or waits for the file
 * that makes it; resolves true when it was made, false when making it failed (or there is no
 * run directory) — the caller then goes without, as before.
 */
export async function oncePerRun(name: string, make: (dir: string) => Promise<void>): Promise<boolean> {
  const dir = runDir();
  if (!dir) return false;
  const done = path.join(dir, `${name}.done`);
  const failed = path.join(dir, `${name}.failed`);
  try {
    mkdirSync(path.join(dir, `${name}.lock`));
  } catch {
    // Another file makes it: wait for its note (a maker killed half-way leaves none, hence the cap).
    const until = Date.now() + 600_000;
    while (!existsSync(done) && !existsSync(failed) && Date.now() < until) await sleep(100);
    return existsSync(done);
  }
  try {
    await make(dir);
    writeFileSync(done, '');
    return true;
  } catch (error) {
    writeFileSync(failed, String((error as Error)?.stack ?? error));
    console.warn(`[tests] ${name} was not made, each app migrates its own: ${(error as Error)?.message}`);
    return false;
  }
}
