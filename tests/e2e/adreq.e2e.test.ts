/**
 * Advertising passport requests in Chromium (issue #20 item 3a), one portal and one browser: a
 * business files a legal-person request in its cabinet (only the legal block is shown), the
 * department head finds it among the arrived ones, it is taken for review, approved from its
 * page, and "Issue passport" creates the passport, whose page shows K, M and the monthly
 * payment the server computed (M × K × area). Screenshots at 1280 and 360 px in ru and
 * uzCyrillic: .tmp/screenshots/adreq-*.png.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { browserTestsEnabled, waitForScreen } from '../support/browser.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';
import { fillForm } from '../support/fill-form.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const requestSchema = registry.entities.get('advertising-passport-request')!.schema;
const PASSWORD = 'adreq-e2e-pass-1';
const REGION = 4;
const DISTRICT = 401;
const NAME = 'Reklama Servis MChJ';

describe.skipIf(!browserTestsEnabled())('advertising passport requests in Chromium', () => {
  let ctx: StaffBrowser;
  let browser: StaffBrowser['browser'];
  let portal: StaffBrowser['portal'];
  let api: StaffBrowser['api'];
  let admin: string;
  let head: string;
  let business: string;
  let requestId: number;

  const pageAs = (username: string, route: string, locale: string, width = 1280): Promise<Page> =>
    ctx.pageAs(route, locale, width, { username, password: PASSWORD });
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SHOTS, `adreq-${name}.png`), fullPage: true });

  beforeAll(async () => {
    ctx = await openStaffBrowser();
    ({ portal, browser, api, admin } = ctx);
    await ctx.addUser('e2e-ad-business', ['business'], PASSWORD, { isOuter: true });
    await ctx.addUser('e2e-ad-head', ['department-head'], PASSWORD, { regionId: REGION });
    head = await ctx.tokenOf('e2e-ad-head', PASSWORD);
    business = await ctx.tokenOf('e2e-ad-business', PASSWORD);
  }, 600_000);
  afterAll(() => ctx?.close());

  it('a business files a legal-person request in its cabinet', async () => {
    const page = await pageAs('e2e-ad-business', '/cabinet/advertising-requests/new', 'ru');
    await waitForScreen(page, '[data-screen="my-advertising-request-new"] [data-field="/personType"]');
    await fillForm(page, requestSchema, { personType: 'LEGAL' });
    // Only the chosen person's block is shown.
    expect(await page.locator('[data-field="/legalPerson/name"]').isVisible()).toBe(true);
    expect(await page.locator('[data-field="/physicalPerson/name"]').isVisible()).toBe(false);
    await fillForm(page, requestSchema, {
      legalPerson: { name: NAME, tin: '301234567', director: 'Karimov A.', phone: '+99890-123-45-67' },
      adKind: 'CONSTRUCTION',
      regionId: REGION,
      districtId: DISTRICT,
      placement: { address: 'Samarqand, Registon koʻchasi 5' },
    });
    await shot(page, 'cabinet-form-ru-1280');
    await page.locator('[data-action="save"]').click();
    const confirm = page.locator('[data-dialog="confirm"] [data-action="confirm"]');
    if (await confirm.isVisible({ timeout: 2000 }).catch(() => false)) await confirm.click();
    await page.waitForTimeout(1500);
    await shot(page, 'cabinet-after-save-ru-1280');
    const mineNow = async () =>
      (
        (await api(business, 'POST', '/api/advertising-passport-request/list-search', {
          page: 0,
          itemsPerPage: 10,
        })) as { list: Array<Record<string, unknown>> }
      ).list;
    await expect.poll(async () => (await mineNow()).length).toBe(1);
    const mine = { list: await mineNow() };
    expect(mine.list[0]).toMatchObject({ status: 'SUBMITTED', personType: 'LEGAL', legalPerson: { name: NAME } });
    // The hidden block travels empty at most: nothing of a physical person is stored.
    expect(Object.keys((mine.list[0]!.physicalPerson as object | undefined) ?? {})).toEqual([]);
    requestId = mine.list[0]!.id as number;
    await page.context().close();
    const narrow = await pageAs('e2e-ad-business', '/cabinet/advertising-requests', 'uzCyrillic', 360);
    await waitForScreen(narrow, '[data-screen="my-advertising-requests"] >> nth=0');
    await narrow.locator('text=Келиб тушган >> visible=true').first().waitFor();
    await shot(narrow, 'cabinet-list-uzCyrillic-360');
    await narrow.context().close();
  });

  it('staff see it arrived, take it for review, approve it and issue the passport with the computed payment', async () => {
    const page = await pageAs('e2e-ad-head', '/admin/advertising-passport-requests/arrived', 'ru');
    await waitForScreen(page, '[data-screen="advertising-passport-request-arrived"] >> nth=0');
    await page.getByText(NAME).first().waitFor();
    await shot(page, 'arrived-ru-1280');
    // Taking it for review names a department (a record picker): sent through the API.
    const rec = await api(head, 'GET', `/api/advertising-passport-request/get/${requestId}`);
    await api(head, 'POST', `/api/advertising-passport-request/transition/${requestId}`, {
      event: 'MARK_SEEN',
      payload: { departmentId: 5 }, // the Fergana regional department (department seed)
      version: rec.version,
    });
    await page.goto(`${portal.url}/admin/advertising-passport-requests/${requestId}`);
    await waitForScreen(page, '[data-screen="advertising-passport-request-detail"]');
    await page.locator('[data-region="transitions"] [data-event="APPROVE"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    await page.locator('[data-region="record-status"][data-status="APPROVED"]').waitFor();
    // The action's form validates with the code the build generated from the screen: its dialog
    // loads no JSON Schema compiler.
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.locator('[data-action="issue-passport"]').click();
    const dialog = page.locator('[data-dialog="record-action"]');
    await dialog.waitFor();
    const action = registry.screens.get('advertising-passport-request-detail')!.options!.recordActions![0]!;
    await fillForm(page, action.schema as never, {
      passportNumber: 'AP-2026-0001',
      passportDate: '2026-01-15',
      constructionType: 'BILLBOARD',
      sides: 2,
      width: 3,
      length: 6,
      volume: 36,
      zone: 1,
      regionGroup: 2,
    });
    await shot(page, 'issue-passport-ru-1280');
    // Every field fits the dialog: its columns follow the dialog's width, not the window's
    // (three columns squeezed the inputs past their cells and cut "Valid until" off).
    const inside = await dialog.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return [...el.querySelectorAll('[data-field] input, [data-field] button[role="combobox"]')]
        .map((input) => ({
          name: input.closest('[data-field]')!.getAttribute('data-field'),
          r: input.getBoundingClientRect(),
        }))
        .filter(({ r }) => r.left < box.left || r.right > box.right)
        .map(({ name }) => name);
    });
    expect(inside).toEqual([]);
    await dialog.locator('[data-action="send"]').click();
    await dialog.waitFor({ state: 'detached' });
    const built = JSON.parse(readFileSync(path.join(REPO_ROOT, 'dist/web/.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    expect(requested.filter((p) => p === `/${built['src/engine/form/form-compiler.ts']!.file}`)).toEqual([]);
    // The listener saw the dialog's loads: the screen's generated validators among them.
    expect(requested).toContain(`/${built['screens/advertising-passport-request-detail.json?form-validator']!.file}`);
    const passports = (await api(admin, 'POST', `/api/advertising-passport/list-search?requestId=${requestId}`, {
      page: 0,
      itemsPerPage: 10,
    })) as { list: Array<Record<string, unknown>> };
    expect(passports.list).toHaveLength(1);
    // Rate Z1_G2: K = 1.6, M = 40 000 UZS per m²; 40 000 × 1.6 × 36 = 2 304 000.
    expect(passports.list[0]).toMatchObject({
      ownerName: NAME,
      ownerStir: '301234567',
      regionId: REGION,
      coefficientK: 1.6,
      minimumCollectionM: 40000,
      monthlyPayment: 2304000,
    });
    await shot(page, 'request-detail-ru-1280');
    await page.context().close();

    const id = passports.list[0]!.id as number;
    for (const [locale, width] of [
      ['ru', 1280],
      ['uzCyrillic', 360],
    ] as const) {
      const view = await pageAs('e2e-ad-head', `/admin/advertising-passports/${id}`, locale, width);
      await waitForScreen(view, '[data-screen="advertising-passport-detail"]');
      const payment = view.locator('[data-region="record-view"] [data-field="/monthlyPayment"] dd');
      await payment.waitFor();
      expect((await payment.innerText()).replace(/\s/g, '')).toContain('2304000');
      await shot(view, `passport-${locale}-${width}`);
      if (locale === 'uzCyrillic') {
        await view.goto(`${portal.url}/admin/advertising-passport-requests/${requestId}`);
        await waitForScreen(view, '[data-screen="advertising-passport-request-detail"]');
        await shot(view, 'request-detail-uzCyrillic-360');
      }
      await view.context().close();
    }
  });
});
