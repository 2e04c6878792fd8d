/**
 * Lists people can use (issue #17), in Chromium on one portal and one page: a staff list at
 * 1280 px shows at most four filters before "More filters", its date filter takes "01.02.2025"
 * typed in Russian, no header text is cut and no status badge is clipped, and a saved view
 * survives a reload. Screenshots at 1280 and 360 px in ru and uzCyrillic go to .tmp/screenshots.
 * The grid sorts, filters, pages and resizes with only its registered modules
 * (src/engine/list/grid-modules.ts): a missing one would log a console error naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import {
  browserTestsEnabled,
  launchBrowser,
  newPortalContext,
  portalApi,
  signInThroughForm,
  startPortal,
  waitForScreen,
} from '../support/browser.ts';
import { createSampler } from '../support/sample-data.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const ENTITY = 'appeal';
const screen = [...registry.screens.values()].find((s) => s.kind === 'list' && s.entity === ENTITY)!;
const def = registry.entities.get(ENTITY)!;

/** Header labels whose text does not fit, and status badges wider than their cell. */
async function cutTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const label of document.querySelectorAll<HTMLElement>('.ag-header-cell-text'))
      if (label.scrollWidth > label.clientWidth + 1) cut.push(`header "${label.textContent}"`);
    for (const badge of document.querySelectorAll<HTMLElement>('[data-status]')) {
      const cell = badge.closest('.ag-cell')!.getBoundingClientRect();
      const box = badge.getBoundingClientRect();
      if (box.right > cell.right + 1 || badge.scrollWidth > badge.clientWidth + 1)
        cut.push(`badge "${badge.textContent}"`);
    }
    return cut;
  });
}

describe.skipIf(!browserTestsEnabled())('lists in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let page: Page;
  /** The page's console errors (AG Grid names a module it misses in one). */
  const consoleErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `lists-${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    const { tokenOf, api } = portalApi(portal.url);
    const token = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    const sample = createSampler(def.schema, registry.references, createServerAjv());
    // More than the smallest page (10), so that there is a second page to turn to.
    for (let i = 0; i < 12; i++)
      await api(token, 'POST', `/api${def.manifest.base}/create`, sample(700 + i, { full: true }));
    browser = await launchBrowser();
    page = await (await newPortalContext(browser, 'ru', 1280)).newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await signInThroughForm(page, `${portal.url}${screen.route}`, 'admin', TEST_ADMIN_PASSWORD);
    await waitForScreen(page, `[data-screen="${screen.id}"] [role="row"][row-id="1"]`);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('shows at most four filters before "More filters", takes a DD.MM.YYYY date, cuts no header and clips no badge', async () => {
    const bar = page.locator('[data-screen] [data-filter]');
    expect(await bar.count()).toBeLessThanOrEqual(4);
    await page.locator('[data-action="more-filters"]').waitFor();
    expect(await cutTexts(page)).toEqual([]);
    await shot('ru-1280');

    const from = page.locator('[data-filter="createdDate"] input').first();
    await from.pressSequentially('01.02.2025');
    expect(await from.inputValue()).toBe('01.02.2025');
    await expect.poll(() => new URL(page.url()).searchParams.get('createdDateFrom')).toBe('2025-02-01');
    await page.locator('[data-chip="createdDate"]').waitFor();
    expect(await page.locator('[data-chip="createdDate"]').innerText()).toContain('01.02.2025');
    await page.locator('[data-chip="createdDate"]').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('createdDateFrom')).toBeNull();

    await page.locator('[data-action="more-filters"]').click();
    await page.locator('[data-panel="more-filters"]').waitFor();
    await shot('ru-1280-more');
    await page.locator('[data-action="more-filters"]').click();
  });

  it('keeps a saved view across a reload', async () => {
    await page.locator('[data-filter="statusId"] select').selectOption({ index: 1 });
    await expect.poll(() => new URL(page.url()).searchParams.get('statusId')).not.toBeNull();
    const status = new URL(page.url()).searchParams.get('statusId');
    await page.locator('[data-action="views"]').click();
    await page.locator('[data-action="save-view"]').click();
    await page.locator('[data-input="view-name"]').fill('Мои новые');
    await page.locator('[data-action="save-view-confirm"]').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).not.toBeNull();
    await page.reload();
    await waitForScreen(page, `[data-screen="${screen.id}"] [data-action="views"]`);
    await expect.poll(() => page.locator('[data-action="views"]').innerText()).toContain('Мои новые');
    expect(new URL(page.url()).searchParams.get('statusId')).toBe(status);
    await page.locator('[data-action="views"]').click();
    await page.locator('[data-view="Мои новые"]').waitFor();
    await page.keyboard.press('Escape');
  });

  it('fits a phone and reads in Uzbek (Cyrillic): screenshots', async () => {
    await page.goto(`${portal.url}${screen.route}`);
    await waitForScreen(page, `[data-screen="${screen.id}"] [role="row"][row-id="1"]`);
    await page.setViewportSize({ width: 360, height: 800 });
    // Drawn afresh at the phone's width (the menu starts closed there).
    await page.reload();
    await page.locator('[data-action="filters"]').waitFor();
    await shot('ru-360');
    await page.evaluate(() => localStorage.setItem('portal.locale', JSON.stringify('uzCyrillic')));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await waitForScreen(page, `[data-screen="${screen.id}"] [role="row"][row-id="1"]`);
    expect(await page.locator('[data-screen] [data-filter]').count()).toBeLessThanOrEqual(4);
    expect(await cutTexts(page)).toEqual([]);
    await shot('uzCyrillic-1280');
    await page.setViewportSize({ width: 360, height: 800 });
    await page.reload();
    await page.locator('[data-action="filters"]').waitFor();
    await shot('uzCyrillic-360');
  });

  it('sorts, filters, pages and resizes with only the grid modules it registers, logging no error', async () => {
    await page.evaluate(() => localStorage.setItem('portal.locale', JSON.stringify('ru')));
    await page.setViewportSize({ width: 1280, height: 900 });
    consoleErrors.length = 0;
    await page.goto(`${portal.url}${screen.route}`);
    await waitForScreen(page, `[data-screen="${screen.id}"] [role="row"][row-id="1"]`);
    const param = (name: string) => new URL(page.url()).searchParams.get(name);

    // Sort: a header click sorts ascending, a second descending (the server's order, the grid's arrows).
    const column = def.grid.columns.find(
      (c) => c.sortable && !c.hidden && !def.grid.defaultSort.some((s) => s.field === c.field),
    )!;
    const header = page.locator(`[role="columnheader"][col-id="${column.field}"]`);
    await header.locator('.ag-header-cell-label').click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => param('sort')).toMatch(/^[^-]/);
    await header.locator('.ag-header-cell-label').click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => param('sort')).toMatch(/^-/);

    // Filter: a status chosen in the bar is in the address and shown as a chip; the chip clears it.
    await page.locator('[data-filter="statusId"] select').selectOption({ index: 1 });
    await expect.poll(() => param('statusId')).not.toBeNull();
    await page.locator('[data-chip="statusId"]').click();
    await expect.poll(() => param('statusId')).toBeNull();

    // Pages: 10 a page, then the second page.
    await page.locator('[data-action="page-size"]').selectOption('10');
    await expect.poll(() => page.locator('[data-screen] [role="row"][row-id]').count()).toBe(10);
    await page.locator('[data-action="next-page"]').click();
    await expect.poll(() => param('page')).toBe('2');
    await expect.poll(() => page.locator('[data-role="page"]').innerText()).toMatch(/^Страница 2 из \d+$/);

    // Resize: dragging a header's right edge widens its column.
    const before = (await header.boundingBox())!;
    const handle = (await header.locator('.ag-header-cell-resize').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2 + 80, handle.y + handle.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await header.boundingBox())!.width).toBeGreaterThan(before.width + 40);

    expect(consoleErrors).toEqual([]);
  });
});
