/**
 * The antimonopoly compliance self-assessment in Chromium (issue #20 item 5), one portal and one
 * browser: a signed-in business fills data entry forms 1–4 (the wizard) in Russian and sees its
 * score, level and recommendations on its cabinet record; a committee employee takes it under
 * review and accepts it with a comment; the business's record says accepted with the comment; the
 * sector summary counts it and its number opens the list of as many. Screenshots at 1280 and
 * 360 px in ru and uzCyrillic.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JSONSchema7 } from 'json-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { browserTestsEnabled, waitForScreen } from '../support/browser.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';
import { fillForm } from '../support/fill-form.ts';

const PASSWORD = 'compliance-e2e-pass-1';
const REGION = 1;
const TRADE = 7;
const read = (file: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8'));
const SCHEMA = read('schemas/compliance-assessment/schema.json') as JSONSchema7;
const TEXTS = read('schemas/compliance-assessment/i18n.json');
const ru = TEXTS.ru.entity['compliance-assessment'];

/** The answers of the contract test's fixed set: score 63.7, MEDIUM, four weak areas. */
const ANSWERS = {
  stir: '302345678',
  companyName: 'ООО Комплаенс Тест',
  sectorId: TRADE,
  regionId: REGION,
  year: String(new Date().getUTCFullYear()),
  employees: 40,
  programme: {
    policy: 'YES',
    policyApproved: 'PARTIAL',
    officer: 'YES',
    officerIndependent: 'YES',
    training: 'NO',
    reporting: 'PARTIAL',
  },
  risks: {
    riskMap: 'YES',
    riskReview: 'NO',
    contractReview: 'YES',
    pricingPolicy: 'YES',
    competitors: 'YES',
    dominance: 'PARTIAL',
    procurement: 'YES',
  },
  results: { audits: 'NO', remedied: 'NO', violations: 0, trainedStaff: 5, reviewedContracts: 12 },
};

describe.skipIf(!browserTestsEnabled())('the compliance self-assessment in Chromium', () => {
  let ctx: StaffBrowser;
  let browser: StaffBrowser['browser'];
  let portal: StaffBrowser['portal'];
  let api: StaffBrowser['api'];
  let admin: string;
  let recordId: number;

  const pageAs = (username: string, route: string, locale: string, width = 1280): Promise<Page> =>
    ctx.pageAs(route, locale, width, { username, password: PASSWORD });
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SHOTS, `compliance-${name}.png`), fullPage: true });

  beforeAll(async () => {
    ctx = await openStaffBrowser();
    ({ portal, browser, api, admin } = ctx);
    await ctx.addUser('e2e-business', ['business'], PASSWORD, { isOuter: true, regionId: REGION });
    await ctx.addUser('e2e-inspector', ['employee'], PASSWORD, { regionId: REGION });
  }, 240_000);
  afterAll(() => ctx?.close());

  it('a business fills forms 1–4 and sees its score, level and recommendations', async () => {
    const page = await pageAs('e2e-business', '/cabinet/compliance', 'ru');
    await waitForScreen(page, '[data-screen="my-compliance"] >> nth=0');
    await page.locator('[data-screen="my-compliance"] [data-action="create"]').first().click();
    await page.locator('[data-screen="my-compliance-new"] [data-entity="compliance-assessment"]').waitFor();
    for (let step = 0; step < 4; step++) {
      await fillForm(page, SCHEMA, ANSWERS);
      if (step === 1) await shot(page, 'wizard-ru-1280');
      if (step === 3) break;
      await page.locator('[data-action="next"]').click();
      await page.locator(`[data-screen="my-compliance-new"][data-step="${step + 1}"]`).waitFor();
    }
    await page.locator('[data-field="/__confirm"] input[type=checkbox]').check();
    await page.locator('[data-action="save"]').click();
    const confirm = page.locator('[data-dialog="confirm"] [data-action="confirm"]');
    if (await confirm.count()) await confirm.click();
    await waitForScreen(page, '[data-screen="my-compliance-detail"]');
    recordId = Number(/\/cabinet\/compliance\/(\d+)/.exec(page.url())?.[1]);
    expect(recordId).toBeGreaterThan(0);
    await page.getByText(ru.recommendation.training).first().waitFor();
    await shot(page, 'result-ru-1280');
    const text = await page.locator('[data-screen="my-compliance-detail"]').innerText();
    // Russian writes the decimal comma.
    expect(text).toMatch(/63[.,]7/);
    expect(text).toContain(ru.level.MEDIUM);
    for (const code of ['training', 'reporting', 'riskMap', 'audits']) expect(text).toContain(ru.recommendation[code]);
    expect(text).not.toContain(ru.recommendation.policy);
    await page.context().close();
  });

  it('staff take it under review and accept it with a comment; the business sees it accepted', async () => {
    const page = await pageAs('e2e-inspector', `/admin/compliance-assessments/${recordId}`, 'ru');
    await waitForScreen(page, '[data-screen="compliance-assessment-detail"]');
    await page.locator('[data-region="transitions"] [data-event="TAKE"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    await page.locator('[data-region="record-status"][data-status="UNDER_REVIEW"]').waitFor();
    await page.locator('[data-region="transitions"] [data-event="ACCEPT"]').click();
    const dialog = page.locator('[data-dialog="transition"]');
    await dialog.locator('textarea, input[type=text]').first().fill('Оценка подтверждена');
    await dialog.locator('[data-action="send"]').click();
    await page.locator('[data-region="record-status"][data-status="ACCEPTED"]').waitFor();
    await shot(page, 'staff-record-ru-1280');
    await page.context().close();
    const stored = await api(admin, 'GET', `/api/compliance-assessment/get/${recordId}`);
    expect(stored).toMatchObject({ status: 'ACCEPTED', staffComment: 'Оценка подтверждена', score: 63.7 });
  });

  it('the sector summary counts it and the number opens the list of as many', async () => {
    const page = await pageAs('e2e-inspector', '/admin/compliance-summary', 'ru');
    await waitForScreen(page, '[data-screen="compliance-summary"]');
    const row = page.locator('[data-panel="sectors"] [data-line="row"]');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    const weak = page.locator('[data-panel="weak"] [data-line="row"]').first();
    expect((await weak.locator('[data-cell="training"]').innerText()).trim()).toBe('1');
    expect((await weak.locator('[data-cell="policy"]').innerText()).trim()).toBe('0');
    await shot(page, 'summary-ru-1280');
    const drill = row.first().locator('[data-cell="submissions"] [data-drill]');
    expect((await drill.innerText()).trim()).toBe('1');
    await drill.click();
    await waitForScreen(page, '[data-screen="compliance-assessment-list"] >> nth=0');
    const filters = new URLSearchParams(
      [...new URL(page.url()).searchParams].filter(([k]) => !['page', 'sort', 'view'].includes(k)),
    );
    const list = await api(admin, 'POST', `/api/compliance-assessment/list-search?${filters}`, {
      page: 0,
      itemsPerPage: 50,
    });
    expect(list.total).toBe(1);
    await page.context().close();
  });

  it('360 px in uzCyrillic and ru: the cabinet record and the summary', async () => {
    for (const locale of ['uzCyrillic', 'ru']) {
      const business = await pageAs('e2e-business', `/cabinet/compliance/${recordId}`, locale, 360);
      await waitForScreen(business, '[data-screen="my-compliance-detail"]');
      const texts = TEXTS[locale].entity['compliance-assessment'];
      // The loading state carries the same data-screen: wait for the record itself.
      await business.getByText(texts.recommendation.training).first().waitFor();
      const seen = await business.locator('[data-screen="my-compliance-detail"]').innerText();
      expect(seen).toContain(texts.recommendation.training);
      // The committee's comment, written only by ACCEPT, as the business sees it.
      expect(seen).toContain('Оценка подтверждена');
      await shot(business, `result-${locale}-360`);
      await business.context().close();
      const staff = await pageAs('e2e-inspector', '/admin/compliance-summary', locale, 360);
      await staff.locator('[data-panel="sectors"] [data-line="row"]').first().waitFor();
      await shot(staff, `summary-${locale}-360`);
      await staff.context().close();
    }
  });
});
