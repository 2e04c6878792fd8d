/**
 * The order test files start in: longest first. Two workers take files from one queue, so a
 * long file that starts last runs alone at the end (the CI run of 2026-11-26 began
 * new-entity.test.ts, 116 s, at minute 23). With the longest first, the last minutes are
 * filled by files of a second or less and both workers finish close together.
 *
 * A file's weight is its last duration from vitest's cache when there is one (a local run; a
 * file that failed then goes first, as vitest's own order has it);
 * else the seconds it took in CI (below, the longest ones); else a guess by family — a new
 * browser or contract file starts before the unit tests. Equal weights keep vitest's own order.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds in the CI run of 2026-11-26 13:20 (with the PGlite image, a loaded machine): the files
 * of 25 s or more. A file's own time, without the import before it.
 */
const CI_SECONDS: Record<string, number> = {
  'tests/contract/fuzz.test.ts': 241,
  'tests/e2e/entities.e2e.test.ts': 123,
  'tests/scripts/new-entity.test.ts': 119,
  'tests/contract/list-search.test.ts': 119,
  'tests/contract/permissions-matrix.test.ts': 114,
  'tests/contract/export.test.ts': 80,
  'tests/e2e/public2.e2e.test.ts': 73,
  'tests/e2e/public.e2e.test.ts': 64,
  'tests/contract/schema-evolution.test.ts': 62,
  'tests/contract/workflow-time.test.ts': 59,
  'tests/contract/first-start.test.ts': 56,
  'tests/e2e/correspondence.e2e.test.ts': 51,
  'tests/contract/edit-rules-matrix.test.ts': 50,
  'tests/e2e/prerender.e2e.test.ts': 47,
  'tests/e2e/auth.e2e.test.ts': 43,
  'tests/contract/org.test.ts': 40,
  'tests/e2e/csp.e2e.test.ts': 40,
  'tests/e2e/messenger.e2e.test.ts': 36,
  'tests/contract/workflows.test.ts': 31,
  'tests/contract/public-classifier.test.ts': 29,
  'tests/contract/auth.test.ts': 28,
  'tests/e2e/workflow.e2e.test.ts': 26,
  'tests/contract/stomp-session.test.ts': 26,
  'tests/unit/check.test.ts': 25,
};

/** A guess for a file CI has not timed yet, by its folder: scripts and browsers start apps, units do not. */
const FAMILY_SECONDS: Array<[string, number]> = [
  ['tests/scripts/', 60],
  ['tests/e2e/', 25],
  ['tests/contract/', 15],
];

/** Longest first: cached durations, then CI's, then the family's guess (see the top of this file). */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const root = this.ctx.config.root;
    const weight = (spec: TestSpecification): number => {
      const file = path.relative(root, spec.moduleId).split(path.sep).join('/');
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      // A file that failed last time first, as vitest does (its duration is recorded as 0).
      if (cached?.failed) return Number.POSITIVE_INFINITY;
      if (cached?.duration) return cached.duration / 1000;
      return CI_SECONDS[file] ?? FAMILY_SECONDS.find(([prefix]) => file.startsWith(prefix))?.[1] ?? 0;
    };
    const weights = new Map(ordered.map((spec) => [spec, weight(spec)]));
    // Array.prototype.sort is stable: equal weights keep the base order.
    return ordered.sort((a, b) => weights.get(b)! - weights.get(a)!);
  }
}
