/**
 * The advertising inventory report in Chromium (issue #20 item 3b), one portal and one browser:
 * an inspector fills a report (the 20 checks in their four groups), a measurement that breaks a
 * §9 rule while its check is marked conform brings back the rule's own message on that check, marked
 * non-conform as the message asks it saves, the record page shows the derived result and the report is submitted; the menu's
 * Advertising group lists the three registries. Screenshots at 1280 and 360 px in ru and
 * uzCyrillic: .tmp/screenshots/adinv-*.png.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserTestsEnabled, waitForScreen } from '../support/browser.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';

const GROUPS: Record<string, string[]> = {
  placementChecks: ['roadEdge', 'clearance', 'foundation', 'roofProportion', 'crossing', 'spacing', 'visibility'],
  documentChecks: ['permit', 'passportShown', 'approvals', 'payment'],
  conditionChecks: ['structure', 'lighting', 'fixing', 'site', 'surface'],
  contentChecks: ['language', 'lawful', 'restricted', 'matchesPassport'],
};

describe.skipIf(!browserTestsEnabled())('the advertising inventory report in Chromium', () => {
  let ctx: StaffBrowser;
  let browser: StaffBrowser['browser'];
  let portal: StaffBrowser['portal'];
  let api: StaffBrowser['api'];
  let admin: string;

  const pageAs = (route: string, locale: string, width = 1280): Promise<Page> => ctx.pageAs(route, locale, width);
  const field = (page: Page, pointer: string) => page.locator(`[data-field="${pointer}"]`).first();
  const save = async (page: Page) => {
    await page.locator('[data-action="save"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
  };
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SHOTS, `adinv-${name}.png`), fullPage: true, animations: 'disabled' });

  beforeAll(async () => {
    ctx = await openStaffBrowser();
    ({ portal, browser, api, admin } = ctx);
  }, 240_000);
  afterAll(() => ctx?.close());

  it('fills a report, sees the road-edge rule, fixes it, saves and submits; the menu groups the registries', async () => {
    const page = await pageAs('/admin/advertising-inventories/new', 'ru');
    await waitForScreen(page, '[data-screen="advertising-inventory-new"] [data-field="/placementChecks/roadEdge"]');
    // The Advertising group of the menu holds the three registries.
    const menu = page.locator('[data-region="menu"]');
    for (const route of ['/admin/advertising-inventories', '/admin/ad-monitorings', '/admin/e-auction-monitorings'])
      expect(await menu.locator(`a[href="${route}"]`).count(), route).toBe(1);
    // The checks are grouped under their four titles.
    for (const group of Object.keys(GROUPS)) expect(await field(page, `/${group}`).count()).toBe(1);
    await field(page, '/inspectionDate').locator('input').first().fill('02.11.2026');
    await field(page, '/regionId').locator('select').selectOption('1');
    await field(page, '/address').locator('input').fill('ул. Амира Темура, 1');
    await field(page, '/locationTypeId').locator('select').selectOption('1');
    await field(page, '/sizeId').locator('select').selectOption('1');
    await field(page, '/roadEdgeDistanceM').locator('input').fill('0.8');
    await field(page, '/nearestConstructionM').locator('input').fill('75');
    for (const [group, checks] of Object.entries(GROUPS))
      for (const check of checks) await field(page, `/${group}/${check}`).getByRole('radio').first().check();
    await save(page);
    const roadEdge = field(page, '/placementChecks/roadEdge');
    await expect
      .poll(() => roadEdge.innerText())
      .toContain('Не ближе 1 м от края дороги: измерено 0.8 м — отметьте «Не соответствует».');
    expect(
      (await api(admin, 'POST', '/api/advertising-inventory/list-search', { page: 0, itemsPerPage: 1 })).total,
    ).toBe(0);
    await shot(page, 'form-rule-ru-1280');
    // The fix the message asks for: the check is marked non-conform (the error leaves with the change).
    await roadEdge.getByRole('radio').nth(1).check();
    await save(page);
    await waitForScreen(page, '[data-screen="advertising-inventory-detail"] [data-region="transitions"]');
    const facts = page.locator('[data-region="key-facts"]');
    await expect.poll(() => facts.locator('[data-fact="/result"] dd').innerText()).toBe('Не соответствует');
    await shot(page, 'record-ru-1280');
    await page.locator('[data-region="transitions"] [data-event="SUBMIT"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    await page.locator('[data-region="record-status"][data-status="SUBMITTED"]').waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    expect(await api(admin, 'GET', `/api/advertising-inventory/get/${id}`)).toMatchObject({
      status: 'SUBMITTED',
      result: 'NON_CONFORM',
      nonConformCount: 1,
      roadEdgeDistanceM: 0.8,
    });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`${portal.url}/admin/advertising-inventories/${id}`);
    await waitForScreen(page, '[data-screen="advertising-inventory-detail"] [data-region="key-facts"]');
    await shot(page, 'record-ru-360');
    await page.context().close();

    const uz = await pageAs('/admin/advertising-inventories/new', 'uzCyrillic');
    await waitForScreen(uz, '[data-screen="advertising-inventory-new"] [data-field="/contentChecks/lawful"]');
    await shot(uz, 'form-uzCyrillic-1280');
    await uz.goto(`${portal.url}/admin/advertising-inventories`);
    await waitForScreen(uz, 'section[data-screen="advertising-inventory-list"]');
    await shot(uz, 'list-uzCyrillic-1280');
    await uz.setViewportSize({ width: 360, height: 800 });
    await uz.goto(`${portal.url}/admin/advertising-inventories/new`);
    await waitForScreen(uz, '[data-screen="advertising-inventory-new"] [data-field="/contentChecks/lawful"]');
    await shot(uz, 'form-uzCyrillic-360');
    await uz.context().close();
  });
});
