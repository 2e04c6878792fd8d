/** `npm run check:size`: lists every hand-written file in src over 400 lines and fails; generated code and JSON are exempt. */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';

const fixture = mkdtempSync(path.join(os.tmpdir(), 'check-size-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

const write = (file: string, lines: number) => {
  mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
  writeFileSync(path.join(fixture, file), 'x;\n'.repeat(lines));
};
const checkSize = () =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/check-file-size.ts'), fixture], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });

describe('check:size', () => {
  it('names each file over 400 lines and fails; passes at 400 and on exempt files', () => {
    write('src/engine/Long.tsx', 401);
    write('src/server/deep/long.ts', 650);
    write('src/shared/fits.ts', 400);
    write('src/generated/meta.ts', 5000);
    write('src/i18n/locales/en.json', 3000);
    const failed = checkSize();
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('src/engine/Long.tsx: 401 lines');
    expect(failed.stderr).toContain('src/server/deep/long.ts: 650 lines');
    expect(failed.stderr).not.toMatch(/fits|generated|en\.json/);

    rmSync(path.join(fixture, 'src/engine/Long.tsx'));
    rmSync(path.join(fixture, 'src/server/deep/long.ts'));
    const passed = checkSize();
    expect(passed.stderr).toBe('');
    expect(passed.status).toBe(0);
  });
});
