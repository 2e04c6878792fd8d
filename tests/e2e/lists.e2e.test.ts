/**
 * Lists people can use (issue #17), in Chromium on one portal and one page: a staff list at
 * 1280 px shows at most four filters before "More filters", its date filter takes "01.02.2025"
 * typed in Russian, no header text is cut and no status badge is clipped, and a saved view
 * survives a reload. Screenshots at 1280 and 360 px in ru and uzCyrillic go to .tmp/screenshots.
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
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `lists-${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    const { tokenOf, api } = portalApi(portal.url);
    const token = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    const sample = createSampler(def.schema, registry.references, createServerAjv());
    for (let i = 0; i < 8; i++)
      await api(token, 'POST', `/api${def.manifest.base}/create`, sample(700 + i, { full: true }));
    browser = await launchBrowser();
    page = await (await newPortalContext(browser, 'ru', 1280)).newPage();
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
});
