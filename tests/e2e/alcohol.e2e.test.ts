/**
 * Alcohol purchase control in Chromium (issue #20 item 1), one portal and one browser: staff of a
 * region enter an application through the form (an increased quantity opens its two fields), the
 * department head takes it under review and approves it on its record page, and the totals
 * dashboard shows it in the region's row — the number opens the list, whose total equals it.
 * Screenshots at 1280 and 360 px in ru and uzCyrillic (.tmp/screenshots/alcohol-*.png).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JSONSchema7 } from 'json-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { browserTestsEnabled, waitForScreen } from '../support/browser.ts';
import { fillForm } from '../support/fill-form.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';

const PASSWORD = 'alcohol-e2e-pass-1';
const REGION = 6;
const schema = JSON.parse(
  readFileSync(path.join(REPO_ROOT, 'schemas/alcohol-purchase/schema.json'), 'utf8'),
) as JSONSchema7;
const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Tashkent' });

describe.skipIf(!browserTestsEnabled())('alcohol purchase control in Chromium', () => {
  let ctx: StaffBrowser;
  let portal: StaffBrowser['portal'];
  let api: StaffBrowser['api'];
  let admin: string;
  let id: number;
  /** One signed-in page per person for the whole file (each sign-in costs seconds). */
  let staff: Page;
  let head: Page;

  const pageAs = (username: string, route: string, locale: string, width: number) =>
    ctx.pageAs(route, locale, width, { username, password: PASSWORD });
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SHOTS, `alcohol-${name}.png`), fullPage: true });
  const send = async (page: Page, event: string) => {
    await page.locator(`[data-region="transitions"] [data-event="${event}"]`).click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    await page
      .locator(
        `[data-region="record-status"][data-status]:not([data-status="${event === 'TAKE' ? 'SUBMITTED' : 'UNDER_REVIEW'}"])`,
      )
      .waitFor();
  };

  beforeAll(async () => {
    ctx = await openStaffBrowser();
    ({ portal, api, admin } = ctx);
    await ctx.addUser('e2e-alc-staff', ['employee'], PASSWORD, { regionId: REGION });
    await ctx.addUser('e2e-alc-head', ['department-head'], PASSWORD, { regionId: REGION });
  }, 120_000);
  afterAll(() => ctx?.close());

  it('staff enter an application through the form; the increase asks for its fields', async () => {
    staff = await pageAs('e2e-alc-staff', '/admin/alcohol-purchases/new', 'ru', 1280);
    const page = staff;
    const form = '[data-screen="alcohol-purchase-new"]:not([data-state])';
    await waitForScreen(page, form);
    const reason = page.locator('[data-field="/increaseReason"]').first();
    expect(await reason.isVisible()).toBe(false);
    await fillForm(page, schema, {
      applicationDate: today,
      regionId: REGION,
      buyerTin: '301234567',
      name: 'Samarqand vino zavodi',
      basisOfNeed: 'Вино и коньяк на сезон',
      authorizationDocument: { type: 'LICENSE', number: 'L-2026/17' },
      productionCapacityYear: 50000,
      alcoholType: 'consumption',
      quantity: 1250,
      increased: true,
    });
    // The increase shows the previous allotment and the reason, which are then required.
    await reason.waitFor({ state: 'visible' });
    await fillForm(page, schema, { previousQuantity: 900, increaseReason: 'Новая линия розлива' });
    await shot(page, 'form-ru-1280');
    await page.locator('[data-action="save"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    const detail = page.locator('[data-screen="alcohol-purchase-detail"][data-record]');
    await detail.waitFor({ timeout: 15_000 });
    id = Number(await detail.getAttribute('data-record'));
    const stored = await api(admin, 'GET', `/api/alcohol-purchase/get/${id}`);
    expect(stored).toMatchObject({
      status: 'SUBMITTED',
      regionId: REGION,
      quantity: 1250,
      increased: true,
      previousQuantity: 900,
      authorizationDocument: { type: 'LICENSE', number: 'L-2026/17' },
    });
    // Staff may not review.
    expect(await page.locator('[data-region="transitions"] [data-event="TAKE"]').count()).toBe(0);
    await page.locator('[data-region="record-status"][data-status="SUBMITTED"]').waitFor();
    await shot(page, 'detail-ru-1280');
  });

  it('the department head takes it under review and approves it on a phone', async () => {
    head = await pageAs('e2e-alc-head', `/admin/alcohol-purchases/${id}`, 'uzCyrillic', 360);
    const page = head;
    await waitForScreen(page, '[data-screen="alcohol-purchase-detail"][data-record]');
    await send(page, 'TAKE');
    await page.locator('[data-region="record-status"][data-status="UNDER_REVIEW"]').waitFor();
    await send(page, 'APPROVE');
    await page.locator('[data-region="record-status"][data-status="APPROVED"]').waitFor();
    expect(await page.locator('[data-screen="alcohol-purchase-detail"]').innerText()).toContain('Маъқулланган');
    await shot(page, 'detail-uzCyrillic-360');
    expect((await api(admin, 'GET', `/api/alcohol-purchase/get/${id}`)).status).toBe('APPROVED');
  });

  it('the totals show it in the region’s row; the number opens the list of as many', async () => {
    const page = head;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${portal.url}/admin/alcohol-totals`);
    await waitForScreen(page, '[data-screen="alcohol-totals"]');
    const row = page.locator('[data-panel="by-region"] [data-line="row"]');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.first().innerText()).toMatch(/1[\s\u00a0\u202f]?250/);
    await page.locator('[data-panel="summary"] [data-drill]').first().waitFor();
    await shot(page, 'totals-uzCyrillic-1280');
    const drill = row.first().locator('[data-cell="consumptionCount"] [data-drill]');
    expect((await drill.innerText()).trim()).toBe('1');
    await drill.click();
    await waitForScreen(page, '[data-screen="alcohol-purchase-list"] >> nth=0');
    const query = new URL(page.url()).searchParams;
    expect(query.get('alcoholType')).toBe('consumption');
    expect(query.get('statusId')).toBe('APPROVED');
    await page.getByText('Samarqand vino zavodi').first().waitFor();
    await shot(page, 'list-uzCyrillic-1280');

    // Staff read the totals too (ru, on a phone).
    const phone = staff;
    await phone.setViewportSize({ width: 360, height: 800 });
    await phone.goto(`${portal.url}/admin/alcohol-totals`);
    await waitForScreen(phone, '[data-screen="alcohol-totals"]');
    await phone.locator('[data-panel="by-region"] [data-line="row"]').first().waitFor();
    await shot(phone, 'totals-ru-360');
    await phone.goto(`${portal.url}/admin/alcohol-purchases`);
    await waitForScreen(phone, '[data-screen="alcohol-purchase-list"]:not([data-state])');
    await phone.getByText('Samarqand vino zavodi').first().waitFor();
    await shot(phone, 'list-ru-360');
  });
});
