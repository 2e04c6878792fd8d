/**
 * The done-when of issue #16, item 1: "a new entity made with new:entity passes check and its
 * generated tests with no hand edits". The script runs for real on a copy of the repository
 * (everything but node_modules, which is linked, and git/build/data folders): it writes the
 * files there, runs codegen, the docs generators and the check from the copy's own scripts, and
 * the generated contract, permission, edit-rule and workflow tests of the new entity then run in
 * the copy on PGlite — the repository itself is never touched.
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';

const LEFT_OUT = new Set(['node_modules', '.git', 'dist', 'data', '.tmp', 'coverage']);
let copy: string;

beforeAll(() => {
  copy = mkdtempSync(path.join(os.tmpdir(), 'new-entity-'));
  cpSync(REPO_ROOT, copy, {
    recursive: true,
    filter: (from) => !LEFT_OUT.has(path.relative(REPO_ROOT, from).split(path.sep)[0]!),
  });
  symlinkSync(realpathSync(path.join(REPO_ROOT, 'node_modules')), path.join(copy, 'node_modules'));
});
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** Runs a script of the copy; its exit code and what it printed. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; output: string } {
  const result = spawnSync(path.join(copy, 'node_modules/.bin/tsx'), [path.join('scripts', script), ...args], {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}
const newEntity = (...args: string[]) => run('new-entity.ts', [...args, '--root', copy]);

describe('npm run new:entity on a copy of the repository', () => {
  it('a plain entity passes the check with no hand edits', () => {
    const { status, output } = newEntity('sugar-kiosk');
    expect(status, output).toBe(0);
    expect(output).toMatch(/definition check passed/);
    expect(output).toMatch(/npm run test:entity -- sugar-kiosk/);
    expect(existsSync(path.join(copy, 'src/generated/entities/sugar-kiosk.ts'))).toBe(true);
    expect(readFileSync(path.join(copy, 'docs/roles.md'), 'utf8')).toMatch(/SugarKiosk/);
  });

  it('an entity with a machine passes the check; its machine has its diagram page', () => {
    const { status, output } = newEntity('sugar-outlet', '--workflow', '--title', 'Sugar outlets');
    expect(status, output).toBe(0);
    expect(existsSync(path.join(copy, 'workflows/sugar-outlet.machine.json'))).toBe(true);
    expect(existsSync(path.join(copy, 'docs/workflows/sugar-outlet.md'))).toBe(true);
  });

  it.each([
    ['job-opening', 'vacancy'],
    ['billboard-permit', 'advertising-passport'],
  ])('a copy %s --like %s passes the check', (id, like) => {
    const { status, output } = newEntity(id, '--like', like);
    expect(status, output).toBe(0);
    expect(output).toMatch(new RegExp(`as a copy of "${like}"`));
  });

  it('refuses an id that exists, writing nothing', () => {
    const before = readFileSync(path.join(copy, 'schemas/_access/access.json'), 'utf8');
    const { status, output } = newEntity('sugar-kiosk');
    expect(status).toBe(1);
    expect(output).toMatch(/new:entity: schemas\/sugar-kiosk exists already/);
    expect(readFileSync(path.join(copy, 'schemas/_access/access.json'), 'utf8')).toBe(before);
  });

  // Both new entities in one run (as an analyst would after adding two), so the copy starts
  // vitest and each generated file's app once: sugar-outlet's machine adds the workflow file.
  it('the generated tests of sugar-outlet and sugar-kiosk pass (PGlite)', () => {
    const { status, output } = run('test-entity.ts', ['sugar-outlet', 'sugar-kiosk', '--reporter=verbose'], {
      TEST_DB: 'pglite',
    });
    expect(output).toMatch(/test:entity: sugar-outlet sugar-kiosk in 6 files \(TEST_ENTITY=sugar-outlet,sugar-kiosk,/);
    expect(status, output.slice(-4000)).toBe(0);
    expect(output).toMatch(/Tests\s+\d+ passed/);
    // Each entity's own generated tests ran (the verbose reporter names every test).
    for (const id of ['sugar-outlet', 'sugar-kiosk'])
      expect(output, id).toMatch(new RegExp(`${id} > round-trips schema-valid payloads`));
  }, 600_000);
});
