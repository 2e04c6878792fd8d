/**
 * The integration platform's pages in Chromium (issue #21), one portal with the sandbox upstream
 * (`integrationSandbox: true`) and one browser: an employee opens Integrations, sees the agencies
 * labelled as sandbox, opens the tax committee and finds a company by its STIR (its fields, the
 * registration date as DD.MM.YYYY); a personal-data method of the definitions — its first
 * fixture case — is refused without a purpose (the field says why) and answers with one; an
 * auditor finds that call in the audit with its parameters masked and the purpose. The pages in
 * all four languages show no raw text keys. Screenshots at 1280 and 390 px:
 * .tmp/screenshots/integrations-*.png.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import type { IntegrationMethod } from '../../src/generated/meta.ts';
import { browserTestsEnabled, waitForScreen } from '../support/browser.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';

const PASSWORD = 'Str0ng-enough-passw0rd!';
const PURPOSE = 'Checking the applicant of appeal 14-05/123';
/** The tax committee's company card and the STIR its fixture finds. */
const COMPANY = { agency: 'soliq', method: 'yuridik-info', inn: '301234567' };

/**
 * A personal-data method of the definitions with its first fixture case that names parameters:
 * preferably one an employee may call whose parameters are typed (no choices), as a person
 * fills them in.
 */
function personalMethod(app: FastifyInstance) {
  const candidates = [...app.definitions.integrations].flatMap(([agency, def]) =>
    [...def.methods.values()]
      .filter((method) => method.personalData)
      .map((method) => {
        const found = def.fixtures.get(method.id)?.cases.find((c) => Object.keys(c.params).length > 0);
        return { agency, method, params: (found?.params ?? {}) as Record<string, unknown> };
      })
      .filter((m) => Object.keys(m.params).length > 0),
  );
  const typed = (m: (typeof candidates)[number]) =>
    Object.values((m.method.params.properties ?? {}) as Record<string, { enum?: unknown; oneOf?: unknown }>).every(
      (p) => !p.enum && !p.oneOf,
    );
  return (
    candidates.find((m) => m.method.roles.includes('employee') && typed(m)) ?? candidates.find(typed) ?? candidates[0]
  );
}

/** Types a parameter as a person does: a date as DD.MM.YYYY, anything else as written. */
async function typeParam(page: Page, method: IntegrationMethod, name: string, value: unknown) {
  const schema = (method.params.properties as Record<string, { format?: string }>)[name] ?? {};
  const text = String(value);
  const typed = schema.format === 'date' ? `${text.slice(8, 10)}.${text.slice(5, 7)}.${text.slice(0, 4)}` : text;
  const box = page.locator(`[data-field="/params/${name}"]`).locator('input, textarea, select').first();
  if ((await box.evaluate((el) => el.tagName)) === 'SELECT') await box.selectOption(text);
  else await box.fill(typed);
}

describe.skipIf(!browserTestsEnabled())('the integration pages in Chromium', () => {
  let ctx: StaffBrowser;
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SHOTS, `integrations-${name}.png`), fullPage: true, animations: 'disabled' });
  /** No text key shows raw (a missing locale text is shown as its key). */
  const expectNoRawKeys = async (page: Page) =>
    expect(await page.locator('main').innerText()).not.toMatch(/\b(integration|integrationAudit|screen)\.[a-zA-Z.]+/);

  /** Nothing wider than a phone's screen: the page does not scroll sideways. */
  const expectFits = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  beforeAll(async () => {
    ctx = await openStaffBrowser({ integrationSandbox: true });
  }, 240_000);
  afterAll(() => ctx?.close());

  it('lets an employee find a sandbox record, asks a purpose of personal data, and shows the call to the auditor', async () => {
    const personal = personalMethod(ctx.portal.app);
    expect(personal, 'a personal-data method exists in schemas/_integrations').toBeDefined();
    const { agency, method, params } = personal!;
    // An employee, and the method's own role where employees may not call it.
    const roles = ['employee', ...(method.roles.includes('employee') ? [] : [method.roles[0]!])];
    await ctx.addUser('int-clerk', roles, PASSWORD);
    await ctx.addUser('int-auditor', ['auditor'], PASSWORD);

    // The agencies, labelled as sandbox; the tax committee's page from its card.
    const clerk = { username: 'int-clerk', password: PASSWORD };
    const page = await ctx.pageAs('/admin/integrations', 'en', 1280, clerk);
    await waitForScreen(page, `[data-screen="integrations"] [data-agency="${COMPANY.agency}"]`);
    expect(await page.locator('[data-screen="integrations"]').getAttribute('data-sandbox')).toBe('true');
    await expect(page.locator('[data-region="sandbox-banner"]').innerText()).resolves.toMatch(/sandbox/i);
    expect(await page.locator(`[data-agency="${COMPANY.agency}"] [data-status]`).getAttribute('data-status')).toBe(
      'sandbox',
    );
    await expect(page.locator('[data-region="menu"] a[href="/admin/integrations"]').count()).resolves.toBe(1);
    await shot(page, 'agencies-en-1280');
    await page.locator(`[data-agency="${COMPANY.agency}"] [data-action="open-agency"]`).click();
    await waitForScreen(page, `[data-screen="integration-agency"][data-agency="${COMPANY.agency}"]`);

    // A company by its STIR: its fields, the date as DD.MM.YYYY, the answer marked as the sandbox's.
    await page.locator(`[data-tab="${COMPANY.method}"]`).click();
    await page.locator('[data-field="/params/inn"] input').fill(COMPANY.inn);
    await page.locator('[data-action="run-query"]').click();
    const record = page.locator('[data-region="result"] [data-view="record"]');
    await record.waitFor();
    await expect(record.locator('[data-field="/name"] dd').innerText()).resolves.toBe('"TEXNO SAVDO" MChJ');
    await expect(record.locator('[data-field="/registrationDate"] dd').innerText()).resolves.toBe('12.03.2015');
    await expect(page.locator('[data-state="reply-meta"]').getAttribute('data-sandbox')).resolves.toBe('true');
    await shot(page, 'company-en-1280');

    // The personal-data method: without a purpose the field says why and nothing is asked.
    await page.goto(`${ctx.portal.url}/admin/integrations/${agency}?method=${method.id}`);
    await waitForScreen(page, `[data-method="${method.id}"] [data-field="/purpose"]`);
    await expect(page.locator('[data-state="personal-data"]').count()).resolves.toBe(1);
    for (const [name, value] of Object.entries(params)) await typeParam(page, method, name, value);
    await page.locator('[data-action="run-query"]').click();
    await expect(page.locator('[data-field="/purpose"]').innerText()).resolves.toMatch(/Mandatory field/);
    await expect(page.locator('[data-region="error-summary"] [data-error-link="/purpose"]').count()).resolves.toBe(1);
    expect(await page.locator('[data-region="result"] [data-view]').count()).toBe(0);
    await shot(page, 'purpose-missing-en-1280');
    await page.locator('[data-field="/purpose"] textarea').fill(PURPOSE);
    await page.locator('[data-action="run-query"]').click();
    await page.locator('[data-region="result"] [data-view]').waitFor();
    await shot(page, 'personal-en-1280');
    await page.context().close();
    // The same query on a phone: the answer fits the screen (a table's rows are cards).
    const phone = await ctx.pageAs(`/admin/integrations/${agency}?method=${method.id}`, 'ru', 390, clerk);
    await waitForScreen(phone, `[data-method="${method.id}"] [data-field="/purpose"]`);
    for (const [name, value] of Object.entries(params)) await typeParam(phone, method, name, value);
    await phone.locator('[data-field="/purpose"] textarea').fill(PURPOSE);
    await phone.locator('[data-action="run-query"]').click();
    await phone.locator('[data-region="result"] [data-view]').waitFor();
    await expectFits(phone);
    await shot(phone, 'personal-ru-390');
    await phone.context().close();

    // The auditor sees the call: masked parameters, the purpose, found.
    const auditor = { username: 'int-auditor', password: PASSWORD };
    const audit = await ctx.pageAs('/admin/integrations/audit', 'en', 1280, auditor);
    await waitForScreen(audit, '[data-screen="integration-audit"] [data-cell="purpose"] >> nth=0');
    const row = audit.locator('[data-call]').filter({ hasText: PURPOSE }).first();
    await expect(row.locator('[data-cell="user"]').innerText()).resolves.toBe('int-clerk');
    await expect(row.locator('[data-cell="outcome"]').innerText()).resolves.toBe('Found');
    const shownParams = await row.locator('[data-cell="params"]').innerText();
    for (const [name, value] of Object.entries(params)) {
      expect(shownParams).toContain(`${name}=`);
      if (String(value).length > 4) expect(shownParams).not.toContain(String(value));
    }
    // The auditor queries nothing: no agencies' page in the menu.
    await expect(audit.locator('[data-region="menu"] a[href="/admin/integrations"]').count()).resolves.toBe(0);
    await shot(audit, 'audit-en-1280');
    await audit.context().close();
    const auditPhone = await ctx.pageAs('/admin/integrations/audit', 'uz', 390, auditor);
    await waitForScreen(auditPhone, '[data-screen="integration-audit"] [data-cell="purpose"] >> nth=0');
    await expectFits(auditPhone);
    await shot(auditPhone, 'audit-uz-390');
    await auditPhone.context().close();
  });

  it('lets a department head refresh the customs registry from the customs committee and read the run', async () => {
    // The registry tracks one tariff code: the import asks the customs committee for it.
    await ctx.api(ctx.admin, 'POST', '/api/customs-record/create', {
      stir: '301234567',
      tnvedCode: '1701991000',
      registrationNumber: '26001/01112026/0000001',
      regime: 'IM40',
      date: '2026-11-01',
    });
    await ctx.addUser('int-head', ['department-head'], PASSWORD, { regionId: 14 });
    const head = { username: 'int-head', password: PASSWORD };
    const page = await ctx.pageAs('/admin/customs-records/imports', 'en', 1280, head);
    await waitForScreen(page, '[data-screen="customs-record-imports"] [data-action="registry-import"]');
    await expect(page.locator('[data-state="empty"]').count()).resolves.toBe(1);
    await page.locator('[data-action="registry-import"]').click();
    await expect(page.locator('[data-region="import-done"]').innerText()).resolves.toMatch(
      /3 rows received, 3 added, 0 updated, 0 unchanged, 0 refused/,
    );
    const run = page.locator('[data-run]').first();
    await run.waitFor();
    await expect(run.locator('[data-count="created"]').innerText()).resolves.toBe('3');
    await expect(run.innerText()).resolves.toContain('By int-head');
    await expectNoRawKeys(page);
    await shot(page, 'imports-en-1280');
    await page.context().close();
    // The records are in the registry's list.
    const listed = (await ctx.api(ctx.admin, 'POST', '/api/customs-record/list-search?tnvedCode=1701991000', {})) as {
      total: number;
    };
    expect(listed.total).toBe(4);
    // An employee reads the runs but has no button (no right to create customs records).
    await ctx.addUser('int-reader', ['employee'], PASSWORD, { regionId: 14 });
    const reader = await ctx.pageAs('/admin/customs-records/imports', 'ru', 390, {
      username: 'int-reader',
      password: PASSWORD,
    });
    await waitForScreen(reader, '[data-screen="customs-record-imports"] [data-run]');
    await expect(reader.locator('[data-action="registry-import"]').count()).resolves.toBe(0);
    await expectNoRawKeys(reader);
    await shot(reader, 'imports-ru-390');
    await reader.context().close();
  });

  it('speaks all four languages on the agencies, agency, audit and health pages', async () => {
    for (const locale of ['uz', 'uzCyrillic', 'ru', 'en']) {
      const page = await ctx.pageAs(`/admin/integrations/${COMPANY.agency}?method=${COMPANY.method}`, locale, 1280);
      await waitForScreen(page, '[data-screen="integration-agency"] [data-field="/params/inn"]');
      await expectNoRawKeys(page);
      await shot(page, `agency-${locale}-1280`);
      for (const route of ['/admin/integrations', '/admin/integrations/audit', '/admin/integrations/health']) {
        await page.goto(`${ctx.portal.url}${route}`);
        await waitForScreen(page, '[data-screen^="integration"]:not([data-state])');
        await expectNoRawKeys(page);
      }
      await page.context().close();
      const phone = await ctx.pageAs('/admin/integrations/health', locale, 390);
      await waitForScreen(phone, '[data-screen="integration-health"] [data-agency] >> nth=0');
      await expectFits(phone);
      await shot(phone, `health-${locale}-390`);
      await phone.context().close();
    }
  });
});
