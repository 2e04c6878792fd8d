/**
 * `npm run preview` end to end, kept to one entity, one language and one width: it starts its
 * own portal, makes sample records, and writes the gallery and the PNGs of the entity's list,
 * forms and record page (the entity has no machine: the gallery says so and draws none).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { browserTestsEnabled } from '../support/browser.ts';
import { previewScreens } from '../../scripts/preview/shoot.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
// An entity without a machine that has all four screens.
const entity = [...registry.entities.values()].find((e) => {
  const s = previewScreens(registry, e.id);
  return !e.manifest.workflow && s.list && s.create && s.detail && s.edit;
})!;

describe.skipIf(!browserTestsEnabled())('npm run preview', () => {
  it(`writes ${entity.id}'s gallery and its screenshots, and prints where`, { timeout: 300_000 }, () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'preview-test-'));
    try {
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/preview.ts'), entity.id],
        {
          cwd: REPO_ROOT,
          encoding: 'utf8',
          env: { ...process.env, PREVIEW_DIR: dir, PREVIEW_LOCALES: 'en', PREVIEW_WIDTHS: '360' },
        },
      );
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      const index = path.join(dir, entity.id, 'index.html');
      expect(run.stdout.trim().split('\n').at(-1)).toBe(index);
      const pngs = readdirSync(path.join(dir, entity.id)).filter((f) => f.endsWith('.png'));
      expect(pngs.sort()).toEqual(
        ['form-empty-en-360.png', 'form-filled-en-360.png', 'list-en-360.png', 'record-en-360.png'].sort(),
      );
      const html = readFileSync(index, 'utf8');
      for (const png of pngs) expect(html).toContain(`src="${png}"`);
      expect(html).toContain('no machine');
      // Every view showed as expected: a view that did not show is named in the notes.
      expect(html).not.toContain('did not show');
      for (const png of pngs)
        expect(
          readFileSync(path.join(dir, entity.id, png))
            .subarray(1, 4)
            .toString(),
        ).toBe('PNG');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown entity naming the close one', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/preview.ts'), `${entity.id}x`],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`did you mean "${entity.id}"`);
    expect(existsSync(path.join(REPO_ROOT, '.tmp/preview', `${entity.id}x`))).toBe(false);
  });
});
