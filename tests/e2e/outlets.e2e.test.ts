/**
 * Outlets and automatic reports in Chromium (issue #20 item 2; docs/outlets.md), one portal and
 * one browser: a bakery and a price and stock entry (made through the API) appear in the
 * bakeries' list (a fixed filter) and the entries' list, a report of this month is generated now,
 * its record page shows the row of the entry, and its XLSX downloads. Screenshots at 1280 and
 * 360 px in ru and uzCyrillic: .tmp/screenshots/outlets-*.png.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsEnabled, waitForScreen } from '../support/browser.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';

/** Today in Tashkent (UTC+5), as the portal's date fields count it. */
const TODAY = new Date(Date.now() + 5 * 3600 * 1000).toISOString().slice(0, 10);
const MONTH_START = `${TODAY.slice(0, 8)}01`;

describe.skipIf(!browserTestsEnabled())('outlets and automatic reports in Chromium', () => {
  let ctx: StaffBrowser;
  let browser: StaffBrowser['browser'];
  let portal: StaffBrowser['portal'];
  let api: StaffBrowser['api'];
  let admin: string;

  const pageAt = (route: string, locale: string, width = 1280): Promise<Page> => ctx.pageAs(route, locale, width);
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SHOTS, `outlets-${name}.png`), fullPage: true });

  beforeAll(async () => {
    ctx = await openStaffBrowser();
    ({ portal, browser, api, admin } = ctx);
  }, 300_000);
  afterAll(() => ctx?.close());

  it('adds a bakery and an entry, generates a report now, opens it and downloads its XLSX', async () => {
    // The outlet and its entry are made through the API (the form's kind select came back empty
    // under this test: left in the report); the browser shows the lists and makes the report.
    const made = await api(admin, 'POST', '/api/outlet/create', {
      kind: 'bakery',
      name: 'Non uyi E2E',
      stir: '301234567',
      address: 'Toshkent, Chilonzor 5',
      regionId: 14,
      active: true,
    });
    await api(admin, 'POST', '/api/outlet-entry/create', {
      outletId: made.id,
      date: TODAY,
      variant: 'bread-600g',
      price: 3500,
      stock: 40,
      stockUnit: 'piece',
    });

    // The bakeries' list (a fixed filter) shows it.
    const page = await pageAt('/admin/outlets/bakery', 'ru');
    await waitForScreen(page, '[data-screen="outlet-list-bakery"] >> nth=0');
    await page.getByText('Non uyi E2E').first().waitFor();
    await shot(page, 'bakeries-ru-1280');
    await page.goto(`${portal.url}/admin/outlet-entries`);
    await waitForScreen(page, '[data-screen="outlet-entry-list"] >> nth=0', 90_000);
    await page.locator('[data-screen="outlet-entry-list"] [role="row"]').nth(1).waitFor();
    await shot(page, 'entries-ru-1280');

    // Generate now: the report is made by the server from the entries.
    const generated = await api(admin, 'POST', '/api/auto-report/create', {
      type: 'bakery',
      periodFrom: MONTH_START,
      periodTo: TODAY,
    });
    await page.goto(`${portal.url}/admin/auto-reports/${generated.id}`);
    await waitForScreen(page, '[data-screen="auto-report-detail"] >> nth=0');
    // The row of the entry: the region by name, the price.
    await page.getByText('город Ташкент').first().waitFor();
    expect(await page.locator('[data-screen="auto-report-detail"]').innerText()).toMatch(/3[\s\u00a0]?500/);
    await shot(page, 'report-ru-1280');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-file] a').first().click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^bakery-.*\.xlsx$/);
    expect((await readFile((await download.path())!)).subarray(0, 2).toString()).toBe('PK');
    const reportUrl = page.url().replace(portal.url, '');
    await page.context().close();

    // The same pages on a phone and in Uzbek (Cyrillic): no sideways scroll.
    for (const [route, screen, name] of [
      [reportUrl, 'auto-report-detail', 'report'],
      ['/admin/auto-reports', 'auto-report-list', 'reports'],
    ] as const) {
      for (const [locale, width] of [
        ['uzCyrillic', 360],
        ['uzCyrillic', 1280],
        ['ru', 360],
      ] as const) {
        const p = await pageAt(route, locale, width);
        await waitForScreen(p, `[data-screen="${screen}"] >> nth=0`);
        if (width === 360)
          expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await shot(p, `${name}-${locale}-${width}`);
        await p.context().close();
      }
    }
  });
});
