/**
 * The agency activity rating and the final forecast indicators in Chromium (issue #18 items 3
 * and 6), one portal and one browser: a department head's draft (derived areas filled by the
 * server, entered ones typed) is submitted from its record page and approved there by the
 * chair; the rating dashboard ranks it, a number opens the list whose total equals it, the
 * ranking table exports to XLSX; the forecast dashboard shows progress; screenshots at 360 px
 * in uzCyrillic and ru.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { currentPeriod } from '../../src/shared/periods.ts';
import {
  browserTestsEnabled,
  launchBrowser,
  newPortalContext,
  portalApi,
  signInThroughForm,
  startPortal,
  waitForScreen,
} from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD, userRecord } from '../support/app.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const PASSWORD = 'rating-e2e-pass-1';
const HOME = 4;
const QUARTER = currentPeriod('quarter');
const YEAR = Number(QUARTER.text.slice(0, 4));

describe.skipIf(!browserTestsEnabled())('the agency rating and the forecast in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let api: ReturnType<typeof portalApi>['api'];
  let admin: string;
  let ratingId: number;

  const pageAs = async (username: string, password: string, route: string, locale = 'en', width = 1280) => {
    const page = await (await newPortalContext(browser, locale, width)).newPage();
    await signInThroughForm(page, `${portal.url}${route}`, username, password);
    return page;
  };
  const send = async (page: Page, event: string) => {
    await page.locator(`[data-region="transitions"] [data-event="${event}"]`).click();
    // An event without a payload asks for confirmation.
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    const client = portalApi(portal.url);
    api = client.api;
    admin = await client.tokenOf('admin', TEST_ADMIN_PASSWORD);
    for (const [username, roles, regionId] of [
      ['e2e-head', ['department-head'], HOME],
      ['e2e-chair', ['chair'], 15],
    ] as const) {
      const user = await api(admin, 'POST', '/api/portal-user/create', userRecord(username, roles, { regionId }));
      await api(admin, 'POST', '/api/auth/set-password', { userId: user.id, password: PASSWORD });
    }
    const head = await client.tokenOf('e2e-head', PASSWORD);
    // A case of the region whose execution deadline falls in the quarter, finished: a derived area has data.
    const rating = await api(head, 'POST', '/api/agency-rating/create', {
      regionId: HOME,
      period: QUARTER.text,
      entered: [
        { code: 'methodology', points: 3 },
        { code: 'awareness', points: 2 },
      ],
    });
    ratingId = rating.id as number;
    for (const [regionId, plan, done] of [
      [HOME, 100, 80],
      [HOME, 10, 4],
      [7, 50, 50],
    ] as const)
      await api(admin, 'POST', '/api/forecast-indicator/create', {
        year: YEAR,
        regionId,
        indicator: `Indicator ${plan}`,
        unitId: 1,
        plan,
        done,
      });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('the head submits the draft, the chair approves it; the record page shows the areas with their source', async () => {
    const head = await pageAs('e2e-head', PASSWORD, `/admin/agency-ratings/${ratingId}`);
    await waitForScreen(head, '[data-screen="agency-rating-detail"]');
    await head.getByText("From the portal's data").first().waitFor();
    await send(head, 'SUBMIT');
    await head.locator('[data-region="record-status"][data-status="SUBMITTED"]').waitFor();
    const chair = await pageAs('e2e-chair', PASSWORD, `/admin/agency-ratings/${ratingId}`);
    await waitForScreen(chair, '[data-screen="agency-rating-detail"]');
    await send(chair, 'APPROVE');
    await chair.locator('[data-region="record-status"][data-status="APPROVED"]').waitFor();
    expect((await api(admin, 'GET', `/api/agency-rating/get/${ratingId}`)).status).toBe('APPROVED');
    await chair.context().close();
    await head.context().close();
  });

  it('the rating dashboard ranks it; a number opens the list with that total; the table exports', async () => {
    const page = await pageAs('e2e-chair', PASSWORD, '/admin/rating');
    await waitForScreen(page, '[data-screen="agency-rating-dashboard"]');
    const row = page.locator('[data-panel="ranking"] [data-line="row"]');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    const stored = await api(admin, 'GET', `/api/agency-rating/get/${ratingId}`);
    expect(await row.first().innerText()).toContain(String(stored.maxPoints));
    // The click downloads with the session (the link alone carries no bearer token).
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-panel="ranking"] [data-action="export"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    expect((await readFile((await download.path())!)).subarray(0, 2).toString()).toBe('PK');
    // The count of ratings behind the row opens them (points and percent are not counts).
    const drill = row.first().locator('[data-cell="ratings"] [data-drill]');
    const number = (await drill.innerText()).trim();
    await drill.click();
    await waitForScreen(page, '[data-screen="agency-rating-list"] >> nth=0');
    const query = new URL(page.url()).searchParams;
    const filters = new URLSearchParams([...query].filter(([k]) => !['page', 'sort', 'view'].includes(k)));
    const list = await api(admin, 'POST', `/api/agency-rating/list-search?${filters}`, { page: 0, itemsPerPage: 50 });
    expect(String(list.total)).toBe(number);
    await page.context().close();
  });

  it('the forecast dashboard: a department’s indicators open as a list of as many; the table downloads', async () => {
    const page = await pageAs('e2e-chair', PASSWORD, '/admin/forecast');
    await waitForScreen(page, '[data-screen="forecast-dashboard"]');
    const row = page.locator('[data-panel="by-department"] [data-line="row"]').first();
    await row.waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-panel="by-department"] [data-action="export"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    expect((await readFile((await download.path())!)).subarray(0, 2).toString()).toBe('PK');
    const drill = row.locator('[data-cell="indicators"] [data-drill]');
    const number = (await drill.innerText()).trim();
    await drill.click();
    await waitForScreen(page, '[data-screen="forecast-indicator-list"] >> nth=0');
    const filters = new URLSearchParams(
      [...new URL(page.url()).searchParams].filter(([k]) => !['page', 'sort', 'view'].includes(k)),
    );
    const list = await api(admin, 'POST', `/api/forecast-indicator/list-search?${filters}`, {
      page: 0,
      itemsPerPage: 50,
    });
    expect(String(list.total)).toBe(number);
    await page.context().close();
  });

  it('the forecast dashboard shows progress by department; 360 px in uzCyrillic and ru', async () => {
    for (const locale of ['uzCyrillic', 'ru']) {
      const page = await pageAs('e2e-chair', PASSWORD, '/admin/forecast', locale, 360);
      await waitForScreen(page, '[data-screen="forecast-dashboard"]');
      const rows = page.locator('[data-panel="by-department"] [data-line="row"]');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(2);
      expect(await page.locator('[data-panel="by-department"]').innerText()).toMatch(/65|100/);
      // The plan-vs-done chart is drawn (ApexCharts loads on its own) before the picture.
      await page.locator('[data-panel="chart"] svg.apexcharts-svg').first().waitFor();
      await page.screenshot({ path: path.join(SHOTS, `forecast-dashboard-${locale}-360.png`), fullPage: true });
      await page.goto(`${portal.url}/admin/rating`);
      await waitForScreen(page, '[data-screen="agency-rating-dashboard"]');
      await page.locator('[data-panel="ranking"] [data-line="row"]').first().waitFor();
      await page.screenshot({ path: path.join(SHOTS, `rating-dashboard-${locale}-360.png`), fullPage: true });
      await page.goto(`${portal.url}/admin/agency-ratings/${ratingId}`);
      await waitForScreen(page, '[data-screen="agency-rating-detail"]');
      await page.screenshot({ path: path.join(SHOTS, `rating-record-${locale}-360.png`), fullPage: true });
      await page.context().close();
    }
  });
});
