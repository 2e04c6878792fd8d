/**
 * The appeals statistics dashboards in Chromium (issue #18 item 2), one portal and one browser:
 * a staff member (the chair) opens intake, general and quarter; the period becomes a quarter;
 * a number clicked opens the appeal list whose total equals it; a table downloads as an XLSX;
 * at 360 px in uzCyrillic and at 1280 px in ru the screens draw without sideways scroll.
 * Screenshots: .tmp/screenshots/appeal-stats-*.png.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { systemActor } from '../../src/server/auth/access.ts';
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
import { appealInput } from '../support/public-samples.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const PASSWORD = 'Quarterly-Figures-7';
const STATUSES = ['CREATED', 'UNDER_REVIEW', 'OVERDUE', 'MEASURES_TAKEN', 'EXPLAINED', 'REJECTED', 'REPEATED'];
const COUNT = 14;

describe.skipIf(!browserTestsEnabled())('appeals statistics dashboards in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let page: Page;
  let token: string;

  /** The total the appeal list shows under its grid ("1–14 of 14"). */
  const listTotal = async (): Promise<number> => {
    await waitForScreen(page, '[data-screen="appeal-list"] [data-role="range"]');
    const range = page.locator('[data-screen="appeal-list"] [data-role="range"]');
    await expect.poll(async () => /\d+$/.test((await range.innerText()).trim())).toBe(true);
    return Number((await range.innerText()).trim().match(/(\d+)$/)![1]);
  };
  const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    const { tokenOf, api } = portalApi(portal.url);
    const admin = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    const chair = await api(admin, 'POST', '/api/portal-user/create', {
      username: 'stats-chair',
      firstName: 'Rais',
      lastName: 'Stats',
      isOuter: false,
      canLogin: true,
      roles: ['chair'],
      regionId: 15,
    });
    await api(admin, 'POST', '/api/auth/set-password', { userId: chair.id, password: PASSWORD });
    token = await tokenOf('stats-chair', PASSWORD);
    // Appeals of today (so in this month, quarter and year), mixed over regions, types, topics,
    // channels and statuses.
    const table = portal.app.tables.get('appeal')!.table;
    for (let i = 0; i < COUNT; i++) {
      const regionId = 1 + (i % 4);
      const record = await portal.app.store.create(
        'appeal',
        appealInput(i, {
          regionId,
          districtId: regionId * 100 + 1,
          appealTypeId: 1 + (i % 2),
          topicId: 1 + (i % 5),
          channelId: 1 + (i % 8),
        }),
        systemActor(),
      );
      await portal.app.db.query(`UPDATE ${table} SET status = $1 WHERE id = $2`, [
        STATUSES[i % STATUSES.length],
        record.id,
      ]);
    }
    browser = await launchBrowser();
    page = await (await newPortalContext(browser)).newPage();
    await signInThroughForm(page, `${portal.url}/admin/appeal-stats/enter`, 'stats-chair', PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('intake: the tiles count the period, the period becomes a quarter, a tile opens the list of as many appeals', async () => {
    await waitForScreen(page, '[data-screen="appeal-stats-enter"] [data-tile="total"] [data-drill] >> nth=0');
    const tile = page.locator('[data-tile="total"] [data-drill] >> nth=0');
    expect(await tile.innerText()).toBe(String(COUNT));
    await page.locator('[data-filter="period"] [data-period-part="unit"]').selectOption('quarter');
    await expect.poll(() => new URL(page.url()).searchParams.get('period') ?? '').toMatch(/^\d{4}-Q[1-4]$/);
    await page.locator('[data-panel="by-channel"] [data-drill]').first().waitFor();
    // Eight channels, one row each, and the total row.
    await expect.poll(() => page.locator('[data-panel="by-channel"] tbody tr').count()).toBe(9);
    expect(await noSidewaysScroll()).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'appeal-stats-enter-1280.png'), fullPage: true });
    await page.locator('[data-tile="total"] [data-drill]').click();
    expect(await listTotal()).toBe(COUNT);
    expect(new URL(page.url()).searchParams.get('createdDateFrom')).toMatch(/^\d{4}-\d{2}-01$/);
  });

  it('general: tables by type, topic and region with a total row; a cell opens its list; a table downloads as XLSX', async () => {
    await page.goto(`${portal.url}/admin/appeal-stats/general`);
    await waitForScreen(page, '[data-screen="appeal-stats-general"] [data-panel="by-region"] [data-drill] >> nth=0');
    for (const panel of ['by-type', 'by-topic', 'by-region'])
      await page.locator(`[data-panel="${panel}"] [data-drill]`).first().waitFor();
    // The explained appeals of the first region: a number and the list behind it.
    const cell = page.locator('[data-panel="by-region"] tbody tr').first().locator('[data-drill]').first();
    const number = Number(await cell.innerText());
    expect(number).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(SHOTS, 'appeal-stats-general-1280.png'), fullPage: true });
    const link = page.locator('[data-panel="by-region"] [data-action="export"]');
    expect(await link.getAttribute('href')).toMatch(/^\/api\/dashboards\/appeal-stats-general\/by-region\/export\?/);
    // The click downloads with the session (the link alone carries no bearer token).
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    expect((await readFile((await download.path())!)).subarray(0, 2).toString()).toBe('PK');
    await cell.click();
    expect(await listTotal()).toBe(number);
  });

  it('quarter: by region and topic beside the previous quarter, the current quarter by default', async () => {
    await page.goto(`${portal.url}/admin/appeal-stats/quarter`);
    await waitForScreen(page, '[data-screen="appeal-stats-quarter"] [data-panel="by-topic"] [data-drill] >> nth=0');
    expect(await page.locator('[data-filter="period"]').getAttribute('data-unit')).toBe('quarter');
    const total = page.locator('[data-panel="by-region"] tbody tr').last().locator('[data-drill]').first();
    expect(await total.innerText()).toBe(String(COUNT));
    await page.screenshot({ path: path.join(SHOTS, 'appeal-stats-quarter-1280.png'), fullPage: true });
    await total.click();
    expect(await listTotal()).toBe(COUNT);
  });

  it('at 360 px in uzCyrillic and at 1280 px in ru the screens draw in their language without sideways scroll', async () => {
    for (const [locale, width] of [
      ['uzCyrillic', 360],
      ['ru', 1280],
    ] as const) {
      const context = await newPortalContext(browser, locale, width);
      page = await context.newPage();
      await signInThroughForm(page, `${portal.url}/admin/appeal-stats/general`, 'stats-chair', PASSWORD);
      await waitForScreen(page, '[data-screen="appeal-stats-general"] [data-panel="by-region"] [data-drill] >> nth=0');
      const heading = await page.locator('[data-screen="appeal-stats-general"] h1').first().innerText();
      expect(heading).toBe(locale === 'ru' ? 'Статистика обращений: общая' : 'Мурожаатлар статистикаси: умумий');
      expect(await noSidewaysScroll()).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, `appeal-stats-general-${locale}-${width}.png`), fullPage: true });
      await page.goto(`${portal.url}/admin/appeal-stats/enter`);
      await waitForScreen(page, '[data-screen="appeal-stats-enter"] [data-tile="total"] [data-drill] >> nth=0');
      expect(await noSidewaysScroll()).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, `appeal-stats-enter-${locale}-${width}.png`), fullPage: true });
      await context.close();
    }
  });

  it('staff choose the channel on their form; the public form does not ask for it (the server sets it)', async () => {
    const context = await newPortalContext(browser, 'en', 1280);
    page = await context.newPage();
    await signInThroughForm(page, `${portal.url}/login`, 'admin', TEST_ADMIN_PASSWORD);
    await page.goto(`${portal.url}/admin/appeals/new`);
    await waitForScreen(page, '[data-screen="appeal-new"] [data-field="/channelId"]:visible');
    await page.goto(`${portal.url}/murojaat`);
    await waitForScreen(page, '[data-screen="murojaat"] [data-field="/appealTypeId"]');
    // Left out as a hidden field (the way fields a role may not read are).
    expect(await page.locator('[data-screen="murojaat"] [data-field="/channelId"]:visible').count()).toBe(0);
    expect(await page.locator('[data-screen="murojaat"] [data-field="/regionId"]:visible').count()).toBe(1);
    await context.close();
  });
});
