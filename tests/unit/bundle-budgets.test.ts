import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUDGETS, CEILINGS, describeExcess, overBudget, unmeasured } from '../../scripts/bundle/budgets.ts';
import { FIRST_VISIT, measureRoutes, type Manifest } from '../../scripts/bundle/route-sizes.ts';

const KB = 1024;

/**
 * A made-up build: an entry with a vendor chunk, the app's second graph, the default locale, a
 * home page kind and a list kind that imports a grid chunk (shared with nothing else).
 */
const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_vendor.js'], css: ['assets/index.css'] },
  '_vendor.js': { file: 'assets/vendor.js' },
  'src/app/boot.tsx': { file: 'assets/boot.js', src: 'src/app/boot.tsx', imports: ['_vendor.js'] },
  'src/i18n/locales/uzCyrillic.json': { file: 'assets/uzCyrillic.js', src: 'src/i18n/locales/uzCyrillic.json' },
  'src/engine/page/PageScreen.tsx': { file: 'assets/PageScreen.js', src: 'src/engine/page/PageScreen.tsx' },
  'src/engine/list/ListScreen.tsx': {
    file: 'assets/ListScreen.js',
    src: 'src/engine/list/ListScreen.tsx',
    imports: ['_grid.js', '_vendor.js'],
  },
  '_grid.js': { file: 'assets/grid.js' },
};
const sizes: Record<string, number> = {
  'assets/index.js': 40 * KB,
  'assets/index.css': 5 * KB,
  'assets/vendor.js': 50 * KB,
  'assets/boot.js': 20 * KB,
  'assets/uzCyrillic.js': 30 * KB,
  'assets/PageScreen.js': 2 * KB,
  'assets/ListScreen.js': 30 * KB,
  'assets/grid.js': 200 * KB,
};
const gzipOf = (file: string) => sizes[file] ?? 0;

describe('route sizes from a build manifest', () => {
  const routes = measureRoutes(manifest, gzipOf);
  const of = (route: string) => routes.find((r) => r.route === route);

  it('counts the entry, the second graph, the kind and the locale once each, CSS apart', () => {
    expect(of(FIRST_VISIT)).toMatchObject({ js: (40 + 50 + 20 + 30 + 2) * KB, css: 5 * KB });
    // The list's grid chunk is its own; the vendor chunk it shares with the entry is counted once.
    expect(of('list')).toMatchObject({ js: (40 + 50 + 20 + 30 + 30 + 200) * KB, own: (30 + 200 + 50) * KB });
    // Kinds the build does not have are not measured.
    expect(of('form')).toBeUndefined();
  });
});

describe('byte budgets', () => {
  const routes = measureRoutes(manifest, gzipOf);

  it('passes a build within its budgets', () => {
    expect(overBudget(routes, { [FIRST_VISIT]: 150 * KB, list: 400 * KB })).toEqual([]);
  });

  it('fails a route over its budget, naming the route and the excess', () => {
    const over = overBudget(routes, { [FIRST_VISIT]: 150 * KB, list: 300 * KB });
    expect(over).toEqual([{ route: 'list', js: 370 * KB, budget: 300 * KB, excess: 70 * KB }]);
    expect(describeExcess(over[0]!)).toBe(
      'list loads 370.0 KB of gzip JavaScript, 70.0 KB over its budget of 300.0 KB',
    );
  });

  it('fails one byte over, not at the budget itself', () => {
    const firstVisit = 142 * KB;
    expect(overBudget(routes, { [FIRST_VISIT]: firstVisit })).toEqual([]);
    expect(overBudget(routes, { [FIRST_VISIT]: firstVisit - 1 })).toEqual([
      { route: FIRST_VISIT, js: firstVisit, budget: firstVisit - 1, excess: 1 },
    ]);
  });

  it('says "ceiling" for a route over its ceiling', () => {
    const over = overBudget(routes, { list: 300 * KB });
    expect(describeExcess(over[0]!, 'ceiling')).toBe(
      'list loads 370.0 KB of gzip JavaScript, 70.0 KB over its ceiling of 300.0 KB',
    );
  });

  it('gives every budgeted route a ceiling at or above its budget, and no other route one', () => {
    expect(Object.keys(CEILINGS).sort()).toEqual(Object.keys(BUDGETS).sort());
    for (const [route, budget] of Object.entries(BUDGETS)) expect(CEILINGS[route]).toBeGreaterThanOrEqual(budget);
  });

  it('names a budgeted route the build does not have, so that nothing passes unmeasured', () => {
    expect(unmeasured(routes, { list: 1, form: 1 })).toEqual(['form']);
  });

  it('budgets the first visit and the form, wizard, sign-in, list and detail routes (issue #22)', () => {
    expect(BUDGETS).toEqual({
      [FIRST_VISIT]: 150 * KB,
      form: 250 * KB,
      wizard: 250 * KB,
      signin: 250 * KB,
      list: 300 * KB,
      detail: 300 * KB,
    });
  });
});

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('npm run budgets', () => {
  const build = mkdtempSync(path.join(os.tmpdir(), 'budgets-'));
  afterAll(() => rmSync(build, { recursive: true, force: true }));
  const check = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/check-budgets.ts'), ...args, build], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
  /** Writes the made-up build with `grown` bytes in the vendor chunk (random bytes: gzip keeps their size). */
  const writeBuild = (vendor: number) => {
    rmSync(build, { recursive: true, force: true });
    mkdirSync(path.join(build, '.vite'), { recursive: true });
    mkdirSync(path.join(build, 'assets'));
    writeFileSync(path.join(build, '.vite/manifest.json'), JSON.stringify(manifest));
    const grown = { ...sizes, 'assets/vendor.js': vendor };
    for (const [file, size] of Object.entries(grown)) writeFileSync(path.join(build, file), randomBytes(size));
  };

  it('fails on a build whose first visit is over its ceiling, naming the route and the excess', () => {
    // The vendor chunk grows by 200 KB: the first visit is ~342 KB, ~68 KB over its 274 KB ceiling.
    writeBuild(250 * KB);
    const result = check();
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /first-visit loads 342\.\d KB of gzip JavaScript, 68\.\d KB over its ceiling of 274\.0 KB/,
    );
    // The list (~570 KB) is within its 637 KB ceiling; the kinds this build lacks are named, not passed.
    expect(result.stderr).not.toMatch(/list loads/);
    expect(result.stderr).toContain('the build has no route "form" to measure');
    // Each route is printed with how far it is from its budget, the target.
    expect(result.stdout).toMatch(
      /first-visit +342\.\d KB +\(budget 150\.0 KB, 192\.\d KB over the budget; ceiling 274\.0 KB\)/,
    );
  });

  it('with --targets, fails on a build over the budgets, naming the route and the excess', () => {
    // The vendor chunk grows by 100 KB: the first visit is ~242 KB, within its ceiling but ~92 KB over its 150 KB budget.
    writeBuild(150 * KB);
    expect(check().stderr).not.toMatch(/first-visit loads/);
    const result = check('--targets');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /first-visit loads 242\.\d KB of gzip JavaScript, 92\.\d KB over its budget of 150\.0 KB/,
    );
    // The list (~470 KB) is over its 300 KB too; the kinds this build lacks are named, not passed.
    expect(result.stderr).toMatch(/list loads 470\.\d KB of gzip JavaScript, 170\.\d KB over its budget of 300\.0 KB/);
    expect(result.stderr).toContain('the build has no route "form" to measure');
  });

  it('passes a build whose every budgeted route is within its budget, with and without --targets', () => {
    const small = mkdtempSync(path.join(os.tmpdir(), 'budgets-'));
    try {
      const kinds = ['form/FormScreen', 'wizard/WizardScreen', 'signin/SignInScreen', 'detail/DetailScreen'];
      const whole: Manifest = { ...manifest };
      for (const kind of kinds)
        whole[`src/engine/${kind}.tsx`] = { file: `assets/${kind.split('/')[1]}.js`, src: `src/engine/${kind}.tsx` };
      mkdirSync(path.join(small, '.vite'), { recursive: true });
      mkdirSync(path.join(small, 'assets'));
      writeFileSync(path.join(small, '.vite/manifest.json'), JSON.stringify(whole));
      for (const chunk of Object.values(whole)) {
        for (const file of [chunk.file, ...(chunk.css ?? [])]) writeFileSync(path.join(small, file), randomBytes(KB));
      }
      for (const args of [[], ['--targets']]) {
        const result = spawnSync(
          process.execPath,
          ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/check-budgets.ts'), ...args, small],
          { cwd: REPO_ROOT, encoding: 'utf8' },
        );
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
      }
    } finally {
      rmSync(small, { recursive: true, force: true });
    }
  });
});
