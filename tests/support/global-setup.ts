import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import './once-per-run.ts';
import { postgresUnavailableReason, startTestCluster, type TestCluster } from './postgres.ts';
import { selectedDatabases } from './test-selection.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test cluster, or null when PostgreSQL is not available here. */
    postgresUrl: string | null;
    postgresSkipReason: string;
  }
}

let cluster: TestCluster | undefined;

/**
 * Starts one PostgreSQL cluster for the whole run (each test file makes its own database), and
 * names the run's directory for what is made once per run by the first test that needs it
 * (tests/support/once-per-run.ts: the migrated PGlite image).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'portal-test-run-'));
  project.provide('testRunDir', runDir);
  const teardown = await setupPostgres(project);
  return () => {
    teardown();
    rmSync(runDir, { recursive: true, force: true });
  };
}

async function setupPostgres(project: TestProject): Promise<() => void> {
  // TEST_DB=pglite: PostgreSQL is left out on purpose — no cluster, and REQUIRE_POSTGRES=1 has
  // nothing to require.
  if (!selectedDatabases().includes('postgres')) {
    project.provide('postgresUrl', null);
    project.provide('postgresSkipReason', 'TEST_DB leaves PostgreSQL out');
    return () => undefined;
  }
  const reason = postgresUnavailableReason();
  if (reason) {
    if (process.env.REQUIRE_POSTGRES === '1')
      throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is unavailable: ${reason}`);
    console.warn(
      `\n[tests] PostgreSQL tests are SKIPPED: ${reason}. Install PostgreSQL (apt-get install postgresql) to run them.\n`,
    );
    project.provide('postgresUrl', null);
    project.provide('postgresSkipReason', reason);
    return () => undefined;
  }
  cluster = await startTestCluster();
  project.provide('postgresUrl', cluster.url);
  project.provide('postgresSkipReason', '');
  return () => cluster?.stop();
}
