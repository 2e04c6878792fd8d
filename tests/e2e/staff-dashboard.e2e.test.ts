/**
 * The staff dashboard (/admin/dashboard) in Chromium, one portal and one browser: the admin
 * signs in (the web app opens its live socket) and sees themselves among the employees online,
 * the appeal tiles as counted from the records made here, a tile that opens the appeal list with
 * the same total, and the users table as XLSX from its download link; the page at 360 px in uzCyrillic and
 * at 1280 px in Russian; then a department head of one region sees only that region — in the
 * tiles and among the employees online.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { systemActor } from '../../src/server/auth/access.ts';
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
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { axeProblems } from '../support/public-browser.ts';
import { createSampler } from '../support/sample-data.ts';
import { createStaff, STOMP_PASSWORD } from '../support/stomp.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const ROUTE = '/admin/dashboard';
const SCREEN = '[data-screen="staff-dashboard"]';
const REGION = 4;
/** The states given to the appeals made here, in turn, and the tile each counts in. */
const STATES: Array<[string, string | undefined]> = [
  ['RETURNED', 'returned'],
  ['SEEN', 'reviewedOrSeen'],
  ['EXPLAINED', 'reviewedOrSeen'],
  ['UNDER_REVIEW', 'underReview'],
  ['OVERDUE', 'underReview'],
  ['CREATED', undefined],
];

describe.skipIf(!browserTestsEnabled())('the staff dashboard in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let page: Page;
  /** The appeals made here: region and tile. */
  const appeals: Array<{ region: number; tile: string | undefined }> = [];
  const tilesOf = (region?: number) => {
    const mine = appeals.filter((a) => region === undefined || a.region === region);
    const n = (tile: string) => String(mine.filter((a) => a.tile === tile).length);
    return { returned: n('returned'), reviewedOrSeen: n('reviewedOrSeen'), underReview: n('underReview') };
  };
  const tileText = (p: Page, panel: string, tile: string) =>
    p.locator(`[data-panel="${panel}"] [data-tile="${tile}"] [data-cell="${tile}"]`).innerText();
  const onlineNames = (p: Page) => p.locator('[data-panel="online"] [data-cell="fullName"]').allInnerTexts();

  /**
   * Signs in at the staff home, waits until the web app's live socket is counted online, and
   * opens the dashboard from the menu (no reload: the socket stays open).
   */
  const openFromHome = async (p: Page, username: string, password: string) => {
    await signInThroughForm(p, `${portal.url}/admin`, username, password);
    await waitForScreen(p, '[data-screen="staff-home"]');
    const id = String(await portal.app.users.idByUsername(username));
    // Outside a test (beforeAll too): a plain wait for the condition.
    for (let i = 0; !(await portal.app.presence.online()).some((o) => o.userId === id); i++) {
      if (i === 200) throw new Error(`${username}'s live socket was never counted online`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await p.locator(`[data-region="menu"] a[href="${ROUTE}"]`).first().click();
    await waitForScreen(p, `${SCREEN} [data-panel="appeals"] [data-tile="returned"]`);
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    const app = portal.app;
    // Appeals through the store, then put into the states of the tiles (this month: the default period).
    const def = app.definitions.entities.get('appeal')!;
    const sample = createSampler(def.schema, app.definitions.references, createServerAjv());
    const table = app.tables.get('appeal')!.table;
    let inRegion = 0;
    let elsewhere = 0;
    for (let seed = 1; inRegion < 6 || elsewhere < 9; seed++) {
      const data = sample(seed, { full: false });
      const here = data.regionId === REGION;
      if (here ? inRegion >= 6 : elsewhere >= 9) continue;
      const [status, tile] = STATES[(here ? inRegion++ : elsewhere++) % STATES.length]!;
      const record = await app.store.create('appeal', data, systemActor());
      await app.db.query(`UPDATE ${table} SET status = $1 WHERE id = $2`, [status, record.id]);
      appeals.push({ region: Number(data.regionId), tile });
    }
    // Documents sent down to the regions (and one in the central office, which is not counted).
    const docs = app.definitions.entities.get('correspondence')!;
    const sampleDoc = createSampler(docs.schema, app.definitions.references, createServerAjv());
    const docTable = app.tables.get('correspondence')!.table;
    for (const [i, status] of ['DESCENDED', 'SEEN', 'RETURN_FOR_COMPLETE', 'ACCEPTED', 'BEING_SEEN'].entries()) {
      const record = await app.store.create(
        'correspondence',
        { ...sampleDoc(i + 1, { full: false }), regionId: i === 4 ? 15 : REGION },
        systemActor(),
      );
      await app.db.query(`UPDATE ${docTable} SET status = $1 WHERE id = $2`, [status, record.id]);
    }
    await createStaff(app, 'head4', ['department-head'], {
      firstName: 'Dilnoza',
      lastName: 'Yusupova',
      regionId: REGION,
    });
    browser = await launchBrowser();
    page = await (await newPortalContext(browser)).newPage();
    await openFromHome(page, 'admin', TEST_ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('shows the signed-in admin online, the appeal tiles as counted here, and a tile opens a list with the same total', async () => {
    // The web app's live socket makes the admin one of the employees online.
    const admin = await portal.app.staffDirectory!.byIds([(await portal.app.users.idByUsername('admin'))!]);
    expect(await onlineNames(page)).toEqual([admin[0]!.name]);
    const want = tilesOf();
    for (const [tile, n] of Object.entries(want)) expect(await tileText(page, 'appeals', tile), tile).toBe(n);
    const sent = { returned: '1', reviewedOrSeen: '2', underReview: '1', total: '4' };
    for (const [tile, n] of Object.entries(sent)) expect(await tileText(page, 'sent', tile), tile).toBe(n);
    for (const panel of ['appeals', 'sent', 'online', 'unread', 'users'])
      await page.locator(`[data-panel="${panel}"]`).waitFor();
    expect(await axeProblems(page, [SCREEN])).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'staff-dashboard-1280-en.png'), fullPage: true });

    await page.locator('[data-panel="appeals"] [data-tile="underReview"] a').click();
    await waitForScreen(page, '[data-screen="appeal-list"] [data-role="range"]');
    expect(new URL(page.url()).pathname).toBe('/admin/appeals');
    expect(new URL(page.url()).searchParams.get('statuses')).toBe('UNDER_REVIEW,BEING_REVIEWED,OVERDUE');
    const range = await page.locator('[data-screen="appeal-list"] [data-role="range"]').innerText();
    expect(range).toMatch(new RegExp(`of ${want.underReview}$`));
    await page.goBack();
    await waitForScreen(page, SCREEN);
  });

  it('offers the users table as XLSX', async () => {
    const link = page.locator('[data-panel="users"] [data-action="export"]');
    await link.waitFor();
    expect(await link.getAttribute('download')).not.toBeNull();
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/dashboards\/staff-dashboard\/users\/export\?period=\d{4}-\d{2}&lang=en$/);
    // A click downloads with the session (the link alone carries no bearer token).
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
  });

  it('fits 360 px in uzCyrillic, and reads in Russian at 1280 px', async () => {
    await page.evaluate(() => localStorage.setItem('portal.locale', JSON.stringify('uzCyrillic')));
    await page.setViewportSize({ width: 360, height: 800 });
    await page.reload();
    await waitForScreen(page, `${SCREEN} [data-panel="appeals"] [data-tile="returned"]`);
    await page.locator('[data-panel="online"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: path.join(SHOTS, 'staff-dashboard-360-uzCyrillic.png'), fullPage: true });
    await page.evaluate(() => localStorage.setItem('portal.locale', JSON.stringify('ru')));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await waitForScreen(page, `${SCREEN} [data-panel="appeals"] [data-tile="returned"]`);
    await expect.poll(() => page.locator('h1').first().innerText()).toBe('Панель управления');
    await page.screenshot({ path: path.join(SHOTS, 'staff-dashboard-1280-ru.png'), fullPage: true });
  });

  it('shows a department head of one region only that region, in the tiles and among those online', async () => {
    const head = await (await newPortalContext(browser)).newPage();
    await openFromHome(head, 'head4', STOMP_PASSWORD);
    await expect.poll(() => onlineNames(head), { timeout: 20_000 }).toEqual(['Yusupova Dilnoza']);
    for (const [tile, n] of Object.entries(tilesOf(REGION)))
      expect(await tileText(head, 'appeals', tile), tile).toBe(n);
    // The admin (scope ALL) sees both, from the server's answer.
    const token = await portalApi(portal.url).tokenOf('admin', TEST_ADMIN_PASSWORD);
    const all = await portalApi(portal.url).api(token, 'GET', '/api/presence/online');
    expect((all.list as Array<{ fullName: string }>).map((u) => u.fullName)).toContain('Yusupova Dilnoza');
    await head.context().close();
  });
});
