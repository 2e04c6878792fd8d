/**
 * What a test run is limited to, read from the environment in one place so every test file, the
 * global setup and `scripts/test-entity.ts` agree:
 *
 * - `TEST_DB=pglite|postgres|both` (default `both`): the databases the contract tests run on. A
 *   database left out is not run at all — no cluster is started, and `REQUIRE_POSTGRES=1` does
 *   not turn its absence into a failure.
 * - `TEST_ENTITY=<id>[,<id>…]`: the generated per-entity tests cover only those entities.
 *
 * Plain Node (no vitest import), since the global setup runs outside a test worker.
 */

export type TestDatabase = 'pglite' | 'postgres';

const DATABASES: readonly TestDatabase[] = ['pglite', 'postgres'];

/** The databases TEST_DB selects, in the order the tests run on them; an unknown value throws. */
export function selectedDatabases(env: NodeJS.ProcessEnv = process.env): TestDatabase[] {
  const value = (env.TEST_DB ?? '').trim().toLowerCase() || 'both';
  if (value === 'both') return [...DATABASES];
  if ((DATABASES as readonly string[]).includes(value)) return [value as TestDatabase];
  throw new Error(`TEST_DB=${env.TEST_DB} is not one of: pglite, postgres, both`);
}

/** The entity ids TEST_ENTITY (comma-separated) limits the generated tests to, or undefined for every entity. */
export function selectedEntities(env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const ids = (env.TEST_ENTITY ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  return ids.length ? ids : undefined;
}

/**
 * The definitions the generated per-entity tests cover: all of them, or only TEST_ENTITY's.
 * `entityOf` names the entity each item belongs to (an entity definition itself, a dataset, a
 * machine follower…). `npm run test:entity` checks the ids against schemas/ first; set by hand, ids
 * that match nothing leaves the generated suites empty, which vitest reports as a failure.
 */
export function forSelectedEntity<T>(items: Iterable<T>, entityOf: (item: T) => string): T[] {
  const all = [...items];
  const only = selectedEntities();
  if (!only) return all;
  return all.filter((item) => only.includes(entityOf(item)));
}

/**
 * The name of one cell of a generated matrix, for `it` names and assertion messages, so a
 * failure says which cell failed: the entity, then state, event, role and field as far as the
 * cell has them, joined by " · " (missing parts left out).
 * @example cellName('appeal', 'BEING_SEEN', undefined, 'executor', '/files') // 'appeal · BEING_SEEN · executor · /files'
 */
export function cellName(entity: string, ...parts: Array<string | number | undefined>): string {
  return [entity, ...parts.filter((p) => p !== undefined && p !== '')].join(' · ');
}
