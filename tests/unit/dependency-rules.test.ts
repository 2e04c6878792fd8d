/**
 * The architecture rules (`npm run check:deps`, .dependency-cruiser.cjs) catch what they are
 * meant to catch. A rule that sees no modules passes on nothing — dependency-cruiser without a
 * TypeScript compiler API skips `.ts` files — so this runs the real command on a tiny tree with
 * one known violation per rule, and on the repository, where it must see the whole of `src`.
 */
import { describe, expect, it, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';

interface CruiseResult {
  modules: { source: string; dependencies: { resolved: string; dependencyTypes: string[] }[] }[];
  summary: {
    totalCruised: number;
    error: number;
    violations: { rule: { name: string; severity: string }; from: string; to: string }[];
  };
}

/** Runs what `npm run check:deps` runs, in `cwd` (extra arguments: a reporter). */
const depcruise = (cwd: string, ...extra: string[]) =>
  spawnSync(
    process.execPath,
    [
      '--import',
      path.join(REPO_ROOT, 'scripts/ts5-for-depcruise.mjs'),
      path.join(REPO_ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      '--config',
      path.join(REPO_ROOT, '.dependency-cruiser.cjs'),
      ...extra,
      'src',
    ],
    { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );

/** The cruise's full result (JSON reporter, which always exits 0). */
function cruise(cwd: string): CruiseResult {
  const run = depcruise(cwd, '--output-type', 'json');
  try {
    return JSON.parse(run.stdout) as CruiseResult;
  } catch {
    throw new Error(`dependency-cruiser printed no JSON (status ${run.status}): ${run.stderr}`);
  }
}

// Inside the repository (under the ignored .tmp/) so npm packages resolve from its node_modules.
const fixture = path.join(REPO_ROOT, '.tmp', `depcruise-fixture-${process.pid}`);
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

/** A tiny `src` with exactly one violation of each rule, written with explicit `.ts`/`.tsx` extensions. */
const files: Record<string, string> = {
  // allowed: the engine uses the client, shared uses an npm package (ESM-only, resolved by its
  // `exports`) and the generated types; the app uses the engine
  'src/engine/List.tsx': "import { http } from '../client/http.ts';\nexport const List = () => http;\n",
  'src/client/http.ts': "import { pick } from '../shared/pick.ts';\nexport const http = pick;\n",
  'src/shared/pick.ts':
    "import type { RJSFSchema } from '@rjsf/utils';\nimport type { Meta } from '../generated/meta.ts';\nexport const pick = (s: RJSFSchema, m: Meta) => [s, m];\n",
  'src/generated/meta.ts': 'export interface Meta { id: string }\n',
  'src/app/App.tsx': "import { List } from '../engine/List.tsx';\nexport const App = List;\n",
  // one violation each
  'src/engine/Shell.tsx': "import { App } from '../app/App.tsx';\nexport const Shell = App;\n", // engine-not-to-app
  'src/shared/leak.ts': "import { check } from '../definitions/check.ts';\nexport const leak = check;\n", // shared-only-shared
  'src/definitions/check.ts': 'export const check = 1;\n',
  'src/shared/value.ts': "import { metaIds } from '../generated/values.ts';\nexport const value = metaIds;\n", // shared-generated-types-only
  'src/generated/values.ts': "import { check } from '../definitions/check.ts';\nexport const metaIds = [check];\n", // generated-imports-nothing
  'src/server/route.ts': "import { http } from '../client/http.ts';\nexport const route = http;\n", // server-not-to-browser
  'src/client/admin.ts': "import { store } from '../server/store.ts';\nexport const admin = store;\n", // browser-not-to-server
  'src/server/store.ts': 'export const store = 1;\n',
  'src/client/screens.ts': "import { List } from '../engine/List.tsx';\nexport const screens = List;\n", // client-not-to-ui
  'src/definitions/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n", // no-circular (a → b → a)
  'src/definitions/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
  'src/definitions/lost.ts': "import { gone } from './gone.ts';\nexport const lost = gone;\n", // not-to-unresolvable
  'src/definitions/check-routes.ts': "import { route } from '../server/route.ts';\nexport const checked = route;\n", // definitions-not-to-runtime
};

describe('architecture rules (dependency-cruiser)', () => {
  it('fail on a tree with one violation of each rule, and name exactly those', () => {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
      writeFileSync(path.join(fixture, file), text);
    }
    writeFileSync(path.join(fixture, 'tsconfig.json'), readFileSync(path.join(REPO_ROOT, 'tsconfig.json')));

    const result = cruise(fixture);
    const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual(
      [
        'browser-not-to-server: src/client/admin.ts → src/server/store.ts',
        'client-not-to-ui: src/client/screens.ts → src/engine/List.tsx',
        'definitions-not-to-runtime: src/definitions/check-routes.ts → src/server/route.ts',
        'engine-not-to-app: src/engine/Shell.tsx → src/app/App.tsx',
        'generated-imports-nothing: src/generated/values.ts → src/definitions/check.ts',
        'no-circular: src/definitions/a.ts → src/definitions/b.ts', // a cycle is reported once
        'not-to-unresolvable: src/definitions/lost.ts → ./gone.ts',
        'server-not-to-browser: src/server/route.ts → src/client/http.ts',
        'shared-generated-types-only: src/shared/value.ts → src/generated/values.ts',
        'shared-only-shared: src/shared/leak.ts → src/definitions/check.ts',
      ].sort(),
    );
    // and the command `npm run check` runs fails (on the errors), naming the rules
    const run = depcruise(fixture);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('engine-not-to-app');
  });

  it('pass on the repository, having seen every module of src and its TypeScript imports', () => {
    const result = cruise(REPO_ROOT);
    expect(result.summary.violations.filter((v) => v.rule.severity === 'error')).toEqual([]);
    expect(result.summary.totalCruised).toBeGreaterThan(300);
    const own = result.modules.filter((m) => /^src\/.*\.tsx?$/.test(m.source));
    expect(own.length).toBeGreaterThan(300);
    // `.tsx` → `.tsx` and type-only imports are seen, not only `.ts` value imports
    const deps = (source: string) => own.find((m) => m.source === source)?.dependencies ?? [];
    expect(deps('src/app/router.tsx').some((d) => d.resolved.startsWith('src/engine/'))).toBe(true);
    expect(own.some((m) => m.dependencies.some((d) => d.dependencyTypes.includes('type-only')))).toBe(true);
  });
});
