/**
 * The record page as staff read it (issue #17 items 2 and 4), in Chromium: an appeal edited
 * and taken for review by the administrator, and a new one. In Uzbek (Cyrillic) and Russian,
 * at 1280 and 360 px: the list row's status chip and the record page's chip say the same label
 * (the new appeal's and the one under review); the details tab has no form control at all (no
 * input, select or textarea, disabled or not) and names the region, not its id; the change
 * history names the person and the field by title ("Portal Administrator … «Мурожаатнинг
 * қисқача мазмуни» …"), never a user id or `/status`. One portal, one browser; screenshots in
 * .tmp/screenshots/record-page-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import {
  browserTestsEnabled,
  launchBrowser,
  newPortalContext,
  portalApi,
  signInThroughForm,
  startPortal,
  waitForScreen,
} from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { SHOTS } from '../support/public-browser.ts';
import { appealInput } from '../support/public-samples.ts';
import { dataOf } from '../support/records.ts';

const texts = JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas/appeal/i18n.json'), 'utf8')) as Record<
  string,
  { entity: { appeal: { field: Record<string, string> } } }
>;
const region = JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas/_reference/region.json'), 'utf8')) as {
  items: Array<{ id: number; nameUz: string; nameRu: string }>;
};

describe.skipIf(!browserTestsEnabled())('the record page in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let id: number;
  /** A new appeal, left in its first state (the "Яратилган" in the list, "Қабул қилинган" on its page). */
  let fresh: number;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await launchBrowser();
    const { tokenOf, api } = portalApi(portal.url);
    const admin = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    const created = await api(admin, 'POST', '/api/appeal/create', appealInput(17));
    id = Number(created.id);
    const edited = await api(admin, 'PUT', `/api/appeal/update/${id}`, {
      ...dataOf(created),
      shortDescription: 'Narx yorlig‘i yo‘q, chek berilmadi',
      version: created.version,
    });
    await api(admin, 'POST', `/api/appeal/transition/${id}`, { event: 'TAKE_FOR_REVIEW', version: edited.version });
    fresh = Number((await api(admin, 'POST', '/api/appeal/create', appealInput(18))).id);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  for (const locale of ['uzCyrillic', 'ru'] as const) {
    it(`reads as a page, with the list's state label and the history in words (${locale})`, async () => {
      const context = await newPortalContext(browser, locale, 1280);
      const page = await context.newPage();
      await signInThroughForm(page, `${portal.url}/admin/appeals`, 'admin', TEST_ADMIN_PASSWORD);
      await waitForScreen(page, '[data-screen="appeal-list"]:not([data-state])');
      const listChip = page.locator(`.ag-row[row-id="${id}"] [data-status]`).first();
      await listChip.waitFor();
      const listLabel = (await listChip.innerText()).trim();
      expect(await listChip.getAttribute('data-status')).toBe('UNDER_REVIEW');
      const freshChip = page.locator(`.ag-row[row-id="${fresh}"] [data-status]`).first();
      const freshLabel = (await freshChip.innerText()).trim();
      expect(await freshChip.getAttribute('data-status')).toBe('CREATED');

      // The new appeal's page says what its row says.
      await page.goto(`${portal.url}/admin/appeals/${fresh}`);
      await waitForScreen(page, `[data-screen="appeal-detail"][data-record="${fresh}"] [data-region="record-status"]`);
      expect((await page.locator('[data-region="record-status"]').innerText()).trim()).toBe(freshLabel);

      await page.goto(`${portal.url}/admin/appeals/${id}`);
      await waitForScreen(page, `[data-screen="appeal-detail"][data-record="${id}"]`);
      const screen = page.locator('[data-screen="appeal-detail"]');
      const chip = screen.locator('[data-region="record-header"] [data-region="record-status"]');
      // One label per state: the page says what the list says.
      expect((await chip.innerText()).trim()).toBe(listLabel);
      expect(await chip.getAttribute('data-status')).toBe('UNDER_REVIEW');

      // The details: labelled values, no form controls at all, the region by its name.
      const view = screen.locator('[data-region="record-view"]');
      await view.waitFor();
      expect(await screen.locator('[role="tabpanel"]').locator('input, select, textarea').count()).toBe(0);
      const regionName = region.items.find((r) => r.id === 1)![locale === 'ru' ? 'nameRu' : 'nameUz'];
      await expect.poll(() => view.locator('[data-field="/regionId"] dd').innerText()).toBe(regionName);
      await expect
        .poll(() => screen.locator('[data-region="key-facts"] [data-fact="/regionId"] dd').innerText())
        .toBe(regionName);
      expect(await view.locator('[data-field="/shortDescription"] dd').innerText()).toBe(
        'Narx yorlig‘i yo‘q, chek berilmadi',
      );
      // An empty field is left out rather than shown as an empty box.
      expect(await view.locator('[data-field="/stir"]').count()).toBe(0);
      await page.screenshot({ path: path.join(SHOTS, `record-page-1280-${locale}.png`), fullPage: true });

      // The change history in words: the person's name and the field's title, not "1" or "/status".
      await screen.locator('[data-tab="history"]').click();
      const history = screen.locator('[data-region="history"]');
      await history.waitFor();
      const told = await history.innerText();
      expect(told).toContain('Portal Administrator');
      expect(told).toContain(texts[locale]!.entity.appeal.field.shortDescription);
      expect(told).toContain(listLabel);
      expect(told).not.toMatch(/\/status|\/shortDescription/);
      expect(await history.locator('[data-change="/shortDescription"]').innerText()).toContain(
        'Narx yorlig‘i yo‘q → Narx yorlig‘i yo‘q, chek berilmadi',
      );
      await page.screenshot({ path: path.join(SHOTS, `record-page-history-1280-${locale}.png`), fullPage: true });

      // On a phone: nothing scrolls sideways, in the details and in the history.
      await page.setViewportSize({ width: 360, height: 800 });
      await page.reload();
      await waitForScreen(page, '[data-screen="appeal-detail"] [data-region="record-view"]');
      await expect.poll(() => view.locator('[data-field="/regionId"] dd').innerText()).toBe(regionName);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.screenshot({ path: path.join(SHOTS, `record-page-360-${locale}.png`), fullPage: true });
      await screen.locator('[data-tab="history"]').click();
      await history.waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.screenshot({ path: path.join(SHOTS, `record-page-history-360-${locale}.png`), fullPage: true });
      await context.close();
    }, 90_000);
  }
});
