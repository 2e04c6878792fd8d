/**
 * The leadership's monitoring in Chromium (issue #18, items 4 and 5), one portal and one
 * browser: the control monitoring table shows the spec's headers in order under the group
 * header, region groups with subtotals and a grand total, drills from a subtotal to the case
 * list whose total is the region's count, and downloads the XLSX with the same layout (read
 * back with exceljs); the chairman monitoring opens each tab and a tile drills to a list whose
 * total equals it; both fit 360 px and read in ru and uzCyrillic (screenshots in .tmp/screenshots).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
import { axeProblems } from '../support/public-browser.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const CHAIRMAN_TABS = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'screens/chairman-monitoring.json'), 'utf8')) as {
    options: { tabs: Array<{ id: string; panels: string[] }> };
  }
).options.tabs;
const YEAR = new Date().getFullYear();
const CONTROL = `/admin/control-monitoring?period=${YEAR}`;
const CHAIRMAN = `/admin/chairman-monitoring?period=${YEAR}`;
/** The §2 columns as the English texts name them, in order; the last three amounts sit under the group. */
const HEADERS = [
  'Region',
  'Chairman',
  'Responsible officer',
  'Case date',
  'Case number',
  'Subject name',
  'Basis',
  'Violated law',
  'Article',
  'Finding',
  'Summary',
  'Amount, million som',
  'Review result',
  'Decision number and date',
  'Instruction number and date',
  'Instruction deadline',
  'Extension basis',
  'Performance',
  'Returned to consumer',
  'Special account',
  'Administrative fine',
  'Comment',
];
const GROUP = 'Total recovered, million som';
/** Cases per region (Karakalpakstan, Andijan, Bukhara); amounts in whole millions so the sums read plainly. */
const CASES: Array<{ regionId: number; amount: number; returned: number; account: number; fine: number }> = [
  { regionId: 1, amount: 5_000_000, returned: 1_000_000, account: 2_000_000, fine: 500_000 },
  { regionId: 1, amount: 3_000_000, returned: 2_000_000, account: 0, fine: 1_500_000 },
  { regionId: 2, amount: 7_000_000, returned: 3_000_000, account: 1_000_000, fine: 2_000_000 },
  { regionId: 3, amount: 1_000_000, returned: 500_000, account: 500_000, fine: 0 },
  { regionId: 3, amount: 2_000_000, returned: 0, account: 1_000_000, fine: 1_000_000 },
  { regionId: 3, amount: 4_000_000, returned: 1_000_000, account: 1_000_000, fine: 1_000_000 },
];

/** The number a list's pager states as its total ("1–3 of 3"). */
async function listTotal(page: Page): Promise<number> {
  const range = page.locator('[data-role="range"]');
  await range.waitFor();
  return Number(/(\d+)\D*$/.exec(await range.innerText())![1]);
}

describe.skipIf(!browserTestsEnabled())('monitoring dashboards in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    const { tokenOf, api } = portalApi(portal.url);
    const admin = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    for (const [i, c] of CASES.entries()) {
      await api(admin, 'POST', '/api/compliance-case/create', {
        caseNumber: `18-0${i + 1}/${YEAR}`,
        caseDate: `${YEAR}-0${(i % 6) + 1}-1${i}`,
        regionId: c.regionId,
        stir: `30111222${i}`,
        name: `Savdo ${i + 1} MChJ`,
        chairman: 'A. Karimov',
        responsible: 'B. Usmonov',
        basis: 'Consumer appeal',
        violatedLaw: 'Law on consumer rights',
        article: '12-2',
        finding: 'Overcharge',
        summary: 'Prices above the declared',
        amount: c.amount,
        reviewResult: 'Violation confirmed',
        decision: { number: `Q-${i + 1}`, date: `${YEAR}-07-0${i + 1}` },
        instruction: { number: `K-${i + 1}`, date: `${YEAR}-07-1${i}` },
        executionDeadline: `${YEAR}-09-0${i + 1}`,
        extensionBasis: '',
        performance: 'Executed',
        collected: c.returned + c.account + c.fine,
        returnedToConsumer: c.returned,
        paidToAccount: c.account,
        fine: c.fine,
        comment: 'Checked',
      });
    }
    browser = await launchBrowser();
    context = await newPortalContext(browser);
    page = await context.newPage();
    await signInThroughForm(page, `${portal.url}${CONTROL}`, 'admin', TEST_ADMIN_PASSWORD);
    await waitForScreen(page, '[data-screen="control-monitoring"] [data-panel="cases"] table');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('the control table: the spec headers in order under the group header, region groups, subtotals and a total', async () => {
    const table = page.locator('[data-panel="cases"] table');
    // Two header rows: the columns outside the group span both rows; the group's three sit under it.
    const top = (await table.locator('tr[data-header="groups"] th').allInnerTexts()).map((h) => h.trim());
    const under = (await table.locator('tr[data-header="columns"] th').allInnerTexts()).map((h) => h.trim());
    const at = HEADERS.indexOf('Returned to consumer');
    expect(top).toEqual([...HEADERS.slice(0, at), GROUP, ...HEADERS.slice(at + 3)]);
    expect(under).toEqual(HEADERS.slice(at, at + 3));
    expect(top.length + under.length).toBe(23);
    const span = await table.locator('tr[data-header="groups"] th', { hasText: GROUP }).getAttribute('colspan');
    expect(span).toBe('3');

    expect(await table.locator('tr[data-line="heading"]').count()).toBe(3);
    const subtotals = table.locator('tr[data-line="subtotal"]');
    expect(await subtotals.count()).toBe(3);
    // Bukhara: 1 + 2 + 4 = 7 million at stake, 1.5 returned, 2.5 to the account, 2 in fines.
    const bukhara = subtotals.nth(2);
    expect((await bukhara.locator('[data-cell="amount"]').innerText()).trim()).toBe('7.0');
    expect((await bukhara.locator('[data-cell="returnedToConsumer"]').innerText()).trim()).toBe('1.5');
    expect((await bukhara.locator('[data-cell="paidToAccount"]').innerText()).trim()).toBe('2.5');
    expect((await bukhara.locator('[data-cell="fine"]').innerText()).trim()).toBe('2.0');
    const total = table.locator('tr[data-line="total"]');
    expect((await total.locator('[data-cell="amount"]').innerText()).trim()).toBe('22.0');
    // One row's decision and instruction read as number and date in one cell.
    const first = table.locator('tr[data-line="row"]').first();
    expect((await first.locator('[data-cell="decision"]').innerText()).trim()).toBe(`№ Q-1, 01.07.${YEAR}`);
    expect(await axeProblems(page, ['[data-screen="control-monitoring"]'])).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'monitoring-control-1280.png'), fullPage: true });
  });

  it('the control table exports the XLSX with the same headers, the merged group header and subtotal rows', async () => {
    // A click downloads the file with the session (the link alone carries no bearer token).
    const link = page.locator('[data-panel="cases"] [data-action="export"]');
    expect(await link.getAttribute('href')).toMatch(/^\/api\/dashboards\/control-monitoring\/cases\/export\?/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const res = { arrayBuffer: async () => readFile((await download.path())!) };
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await res.arrayBuffer()) as never);
    const sheet = book.worksheets[0]!;
    // texts[n - 1] is row n (empty rows kept, so indexes are row numbers less one).
    const texts: string[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row, n) => {
      texts[n - 1] = Array.from({ length: HEADERS.length }, (_, i) => {
        const v = row.getCell(i + 1).value;
        return v == null
          ? ''
          : typeof v === 'object' && 'richText' in v
            ? v.richText.map((r) => r.text).join('')
            : String(v);
      });
    });
    // The column row (the group row above it repeats the merged titles of the columns outside the group).
    const headerAt = texts.findIndex((r) => r[0] === 'Region' && r.includes('Returned to consumer'));
    expect(headerAt, JSON.stringify(texts.slice(0, 6))).toBeGreaterThan(0);
    expect(texts[headerAt]!.slice(0, HEADERS.length)).toEqual(HEADERS);
    const groupRow = texts[headerAt - 1]!;
    const groupCol = groupRow.indexOf(GROUP);
    expect(groupCol).toBe(HEADERS.indexOf('Returned to consumer'));
    const merged = (sheet.model as { merges?: string[] }).merges ?? [];
    const cell = sheet.getRow(headerAt).getCell(groupCol + 1).address; // row headerAt is the group row (texts[headerAt - 1])
    expect(merged.some((m) => m.startsWith(`${cell}:`))).toBe(true);
    // Three subtotal rows and every case row, whatever words the subtotal lines carry.
    const caseRows = texts.filter((r) => /^18-0\d\//.test(r[4] ?? ''));
    expect(caseRows).toHaveLength(CASES.length);
    const amountCol = HEADERS.indexOf('Amount, million som');
    const sums = texts
      .slice(headerAt + 1)
      // Heading rows are merged across the sheet (their text fills every cell): numbers only.
      .filter((r) => !/^18-0\d\//.test(r[4] ?? '') && r[amountCol] !== '' && Number.isFinite(Number(r[amountCol])))
      .map((r) => Number(r[amountCol]));
    // Subtotals 8, 7, 7 and the total 22 (millions).
    expect(sums).toEqual([8, 7, 7, 22]);
  });

  it('a subtotal drills to the case list of its region and period, whose total is the region’s count', async () => {
    await page
      .locator('[data-panel="cases"] tr[data-line="subtotal"]')
      .nth(2)
      .locator('[data-cell="amount"] a[data-drill]')
      .click();
    await waitForScreen(page, '[data-screen="compliance-case-list"] [data-role="range"]');
    expect(new URL(page.url()).searchParams.get('regionId')).toBe('3');
    expect(await listTotal(page)).toBe(3);
  });

  it('the chairman monitoring: every tab opens, and a tile drills to a list whose total equals it', async () => {
    await page.goto(`${portal.url}${CHAIRMAN}`);
    await waitForScreen(
      page,
      '[data-screen="chairman-monitoring"] [data-panel="sections-compliance-case"] [data-tile="received"]',
    );
    const tile = page.locator('[data-panel="sections-compliance-case"] [data-tile="received"]');
    expect((await tile.locator('[data-cell="received"]').innerText()).trim()).toMatch(/^6\b/);
    await page.screenshot({ path: path.join(SHOTS, 'monitoring-chairman-sections-1280.png'), fullPage: true });
    for (const tab of CHAIRMAN_TABS.slice(1)) {
      await page.locator(`[data-tab="${tab.id}"]`).click();
      // Every panel of the tab has drawn its answer (a table, tiles, a chart or a notice).
      for (const id of tab.panels)
        await page
          .locator(`[data-panel="${id}"]:not([aria-busy="true"]) :is(table, [data-tile], [data-chart], [data-state])`)
          .first()
          .waitFor();
      expect(new URL(page.url()).searchParams.get('tab')).toBe(tab.id);
      expect(await axeProblems(page, ['[data-screen="chairman-monitoring"]'])).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `monitoring-chairman-${tab.id}-1280.png`), fullPage: true });
    }
    // Departments: the compliance cases' table downloads as Excel; Bukhara's cases drill to its list.
    await page.locator('[data-tab="departments"]').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-panel="departments-compliance-case"] [data-action="export"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    expect((await readFile((await download.path())!)).subarray(0, 2).toString()).toBe('PK');
    const row = page.locator('[data-panel="departments-compliance-case"] tr[data-line="row"]', { hasText: 'Bukhara' });
    await row.locator('[data-cell="received"] a[data-drill]').click();
    await waitForScreen(page, '[data-screen="compliance-case-list"] [data-role="range"]');
    expect(await listTotal(page)).toBe(3);
    await page.goto(`${portal.url}${CHAIRMAN}`);
    await page.locator('[data-panel="sections-compliance-case"] [data-tile="received"] a[data-drill]').click();
    await waitForScreen(page, '[data-screen="compliance-case-list"] [data-role="range"]');
    expect(await listTotal(page)).toBe(CASES.length);
  });

  it('fits 360 px and reads in ru and uzCyrillic', async () => {
    for (const locale of ['ru', 'uzCyrillic']) {
      const phone = await (await newPortalContext(browser, locale, 360)).newPage();
      await signInThroughForm(phone, `${portal.url}${CONTROL}`, 'admin', TEST_ADMIN_PASSWORD);
      await waitForScreen(phone, '[data-screen="control-monitoring"] [data-panel="cases"] table');
      await phone.screenshot({ path: path.join(SHOTS, `monitoring-control-360-${locale}.png`), fullPage: true });
      expect(await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      const groupHeader = (await phone.locator('tr[data-header="groups"] th').allInnerTexts()).join(' ');
      expect(groupHeader).toContain(locale === 'ru' ? 'Всего взыскано' : 'Жами ундирилган');
      await phone.goto(`${portal.url}${CHAIRMAN}`);
      await waitForScreen(
        phone,
        '[data-screen="chairman-monitoring"] [data-panel="sections-compliance-case"] [data-tile="received"]',
      );
      await phone.screenshot({ path: path.join(SHOTS, `monitoring-chairman-360-${locale}.png`), fullPage: true });
      expect(await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      expect(await phone.locator('[data-tab="reports"]').innerText()).toContain(
        locale === 'ru' ? 'Отчёты и мониторинг' : 'Ҳисоботлар ва мониторинг',
      );
      await phone.context().close();
    }
  });
});
