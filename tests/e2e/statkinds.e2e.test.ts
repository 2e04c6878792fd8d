/**
 * Online report kinds in Chromium (issue #20 item 4), one portal and one browser: a visitor
 * picks the kind on /online-report and files a finance report and a digital-markets report
 * through their own wizards; staff see them in the list filtered by kind and open each one's
 * record page. Screenshots at 1280 and 360 px in ru and uzCyrillic into
 * .tmp/screenshots/statkinds-*.png.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { browserTestsEnabled, newPortalContext, signInThroughForm, waitForScreen } from '../support/browser.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { fillForm } from '../support/fill-form.ts';
import { industryRows } from '../support/report-rows.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const schema = registry.entities.get('online-report')!.schema;

const subject = { stir: '201234567', name: 'Raqam Bozor MChJ', regionId: 14 };
const period = { periodType: 'ANNUAL', year: 2025 };
const finance = { subject, period, finance: { revenue: 125000, costOfSales: 90000, netProfit: -2500 } };
const digital = {
  subject: { ...subject, name: 'Bozor Platform LLC' },
  period,
  platform: { name: 'Bozor.uz', url: 'https://bozor.uz', platformKind: 'marketplace', gmv: 560000, marketShare: 30 },
  segmentRows: [{ segment: 'Food delivery', transactions: 800 }],
};

describe.skipIf(!browserTestsEnabled())('online report kinds in Chromium', () => {
  let ctx: StaffBrowser;
  let browser: StaffBrowser['browser'];
  let portal: StaffBrowser['portal'];
  let api: StaffBrowser['api'];
  let admin: string;

  beforeAll(async () => {
    ctx = await openStaffBrowser();
    ({ portal, browser, api, admin } = ctx);
  }, 240_000);
  afterAll(() => ctx?.close());

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SHOTS, `statkinds-${name}.png`), fullPage: true });

  /** Walks a wizard: fills each step's fields, goes on, confirms and sends. */
  const fileThroughWizard = async (page: Page, screenId: string, data: Record<string, unknown>, shotName: string) => {
    await waitForScreen(page, `[data-screen="${screenId}"][data-entity="online-report"]`);
    for (;;) {
      await fillForm(page, schema, data);
      const next = page.locator('[data-action="next"]');
      if (!(await next.count())) break;
      const step = await page.locator(`[data-screen="${screenId}"]`).getAttribute('data-step');
      await next.click();
      await page.waitForFunction(
        (from) => document.querySelector('[data-step]')?.getAttribute('data-step') !== from,
        step,
      );
    }
    await page.locator('[data-field="/__confirm"] input[type=checkbox]').check();
    await shot(page, shotName);
    await page.locator('[data-action="save"]').click();
    await page
      .locator('[data-dialog="confirm"] [data-action="confirm"]')
      .click({ timeout: 10_000 })
      .catch(async (error) => {
        await shot(page, `${shotName}-stuck`);
        throw error;
      });
  };

  const listed = async (query: string) =>
    ((await api(admin, 'POST', `/api/online-report/list-search?${query}`, {})) as { list: Array<Record<string, any>> })
      .list;

  it('a visitor picks the kind and files a finance and a digital-markets report through their wizards', async () => {
    const page = await (await newPortalContext(browser, 'ru', 1280)).newPage();
    await page.goto(`${portal.url}/online-report`);
    await waitForScreen(page, '[data-screen="online-report-public"]');
    // One thing per page: the three kinds, each a link to its own wizard.
    const cards = page.locator('[data-region="cards"] a');
    expect(await cards.count()).toBe(3);
    expect(await page.locator('[data-region="cards"]').innerText()).toContain('Цифровые рынки');
    await shot(page, 'picker-ru-1280');
    await page.locator('[data-region="cards"] a[href$="/online-report/finance"]').click();
    await fileThroughWizard(page, 'online-report-public-finance', finance, 'finance-wizard-ru-1280');
    await expect.poll(async () => (await listed('kind=finance')).length).toBe(1);

    await page.goto(`${portal.url}/online-report`);
    await page.locator('[data-region="cards"] a[href$="/online-report/digital-markets"]').click();
    // The digital wizard has no goods rows and no financial indicators.
    await waitForScreen(page, '[data-screen="online-report-public-digital"][data-entity="online-report"]');
    await fileThroughWizard(page, 'online-report-public-digital', digital, 'digital-wizard-ru-1280');
    await expect.poll(async () => (await listed('kind=digital')).length).toBe(1);
    const [stored] = await listed('kind=digital');
    const record = await api(admin, 'GET', `/api/online-report/get/${stored!.id}`);
    expect(record).toMatchObject({ kind: 'digital', platform: digital.platform, segmentRows: digital.segmentRows });
    const [fin] = await listed('kind=finance');
    expect(await api(admin, 'GET', `/api/online-report/get/${fin!.id}`)).toMatchObject({
      kind: 'finance',
      finance: finance.finance,
    });
    await page.context().close();
  }, 60_000);

  it('staff type in a 300-row goods list and go straight on: what was typed is what is stored', async () => {
    // A list this long hands typed values to the form when typing pauses or the field is left
    // (src/engine/form/row-commit.ts): a click on Save right after typing must not lose them.
    const rows = industryRows(300);
    const page = await (await newPortalContext(browser, 'en', 1280)).newPage();
    await signInThroughForm(page, `${portal.url}/admin/online-reports`, 'admin', TEST_ADMIN_PASSWORD);
    await page.evaluate(
      (draft) => sessionStorage.setItem('portal.wizard.online-report-new.new', draft),
      JSON.stringify({ step: 2, data: { kind: 'goods', subject, period, industryRows: rows, serviceRows: [] } }),
    );
    await page.goto(`${portal.url}/admin/online-reports/new`);
    const name = page.locator('[data-field="/industryRows/150/productName"] input');
    await name.waitFor({ timeout: 60_000 });
    await page.locator('[data-field="/__confirm"] input[type=checkbox]').check();
    await name.fill('');
    await page.keyboard.type('Typed in row 151');
    const tonnes = page.locator('[data-field="/industryRows/151/capacityTonnes"] input');
    await tonnes.fill('4321');
    // No pause: straight to Save (the field loses the focus to the button).
    await page.locator('[data-action="save"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click({ timeout: 10_000 });
    await expect
      .poll(async () => (await listed('kind=goods')).find((r) => r.subject?.name === subject.name)?.id)
      .toBeDefined();
    const goods = (await listed('kind=goods')).find((r) => r.subject?.name === subject.name)!;
    const stored = (await api(admin, 'GET', `/api/online-report/get/${goods.id}`)) as {
      industryRows: Array<Record<string, unknown>>;
    };
    expect(stored.industryRows).toHaveLength(300);
    expect(stored.industryRows[150]).toMatchObject({ productName: 'Typed in row 151', capacityTonnes: 1150 });
    expect(stored.industryRows[151]).toMatchObject({ productName: 'Mahsulot 152', capacityTonnes: 4321 });
    await page.context().close();
  }, 120_000);

  it('staff see the reports filtered by kind, each with its own record page; the pages fit a phone', async () => {
    const page = await (await newPortalContext(browser, 'uzCyrillic', 1280)).newPage();
    await signInThroughForm(page, `${portal.url}/admin/online-reports?kind=finance`, 'admin', TEST_ADMIN_PASSWORD);
    await waitForScreen(page, 'section[data-screen="online-report-list"]');
    const rows = page.locator('[data-screen="online-report-list"] .ag-row[row-index]');
    await rows.first().waitFor();
    // One row per report (a pinned column repeats a row's element): only the finance report.
    const indexes = new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('row-index'))));
    expect(indexes.size).toBe(1);
    expect(
      await page.locator('[data-screen="online-report-list"] .ag-row[row-index="0"]').first().innerText(),
    ).toContain('Молия');
    await shot(page, 'list-finance-uzCyrillic-1280');
    const [fin] = await listed('kind=finance');
    const [dig] = await listed('kind=digital');
    await page.goto(`${portal.url}/admin/online-reports/${fin!.id}`);
    await waitForScreen(page, `[data-screen="online-report-detail"][data-record="${fin!.id}"]`);
    const finText = await page.locator('[data-screen="online-report-detail"]').innerText();
    expect(finText).toContain('Молиявий кўрсаткичлар');
    expect(finText).not.toContain('Саноат маҳсулотлари');
    // (A report filed without an account has no owner to correct it, so no edit button: which
    // edit wizard a record's button opens is src/engine/common/routes.test.ts's.)
    await shot(page, 'detail-finance-uzCyrillic-1280');
    await page.goto(`${portal.url}/admin/online-reports/${dig!.id}`);
    await waitForScreen(page, `[data-screen="online-report-detail"][data-record="${dig!.id}"]`);
    expect(await page.locator('[data-screen="online-report-detail"]').innerText()).toContain('Bozor.uz');
    await shot(page, 'detail-digital-uzCyrillic-1280');
    await page.setViewportSize({ width: 360, height: 800 });
    await page.waitForTimeout(200);
    await shot(page, 'detail-digital-uzCyrillic-360');
    await page.context().close();

    const phone = await (await newPortalContext(browser, 'ru', 360)).newPage();
    await phone.goto(`${portal.url}/online-report`);
    await waitForScreen(phone, '[data-screen="online-report-public"]');
    await shot(phone, 'picker-ru-360');
    await phone.goto(`${portal.url}/online-report/digital-markets`);
    await waitForScreen(phone, '[data-screen="online-report-public-digital"][data-entity="online-report"]');
    await shot(phone, 'digital-wizard-ru-360');
    await phone.context().close();
    const cyr = await (await newPortalContext(browser, 'uzCyrillic', 360)).newPage();
    await cyr.goto(`${portal.url}/online-report`);
    await waitForScreen(cyr, '[data-screen="online-report-public"]');
    await shot(cyr, 'picker-uzCyrillic-360');
    await cyr.context().close();
  }, 60_000);
});
