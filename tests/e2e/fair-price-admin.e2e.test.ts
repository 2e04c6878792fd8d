/**
 * Fair price staff in Debian's Chromium, as people use it: a fair-price supervisor adds a
 * monitored good and a price monitor of their region on the definitions' screens; the monitor
 * signs in, picks the new good (a deactivated one is not offered) and enters a price; the
 * public /fair-price page names the good in the table. Screenshots at 360 px go to
 * .tmp/screenshots (looked at by a person, not compared).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';
import {
  browserTestsEnabled,
  launchBrowser,
  newPortalContext,
  startPortal,
  waitForScreen,
  signInThroughForm,
} from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const REGION = 6;
const PASSWORD = 'supervisor-pass-1';
const TODAY = new Date().toISOString().slice(0, 10);

describe.skipIf(!browserTestsEnabled())('fair price staff in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  /** Calls the API as a signed-in user (the setup the administrator does, and the password reset, which has no screen yet). */
  const api = async (method: string, url: string, token: string, body?: unknown) => {
    const res = await fetch(`${portal.url}${url}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${method} ${url}`).toBe(200);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const tokenOf = async (username: string, password: string): Promise<string> => {
    const res = await fetch(`${portal.url}/api/auth-payload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const body = await res.text();
    expect(res.status, `sign-in of ${username}: ${body}`).toBe(200);
    return (JSON.parse(body) as { token: string }).token;
  };
  const signInAt = (page: Page, route: string, username: string, password: string) =>
    signInThroughForm(page, `${portal.url}${route}`, username, password);
  const save = async (page: Page) => {
    await page.locator('[data-action="save"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal({ seedSamples: true });
    browser = await launchBrowser();
    // The administrator appoints the supervisor (the one step that stays with the administrator).
    const admin = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    const supervisor = await api('POST', '/api/portal-user/create', admin, {
      username: 'fp-chief',
      firstName: 'Dilnoza',
      lastName: 'Karimova',
      isOuter: false,
      canLogin: true,
      roles: ['fair-price-admin'],
      regionId: REGION,
    });
    await api('POST', '/api/auth/set-password', admin, { userId: supervisor.id, password: PASSWORD });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('a supervisor adds a good and a monitor; the monitor prices the good; the public page shows it', async () => {
    const context = await newPortalContext(browser, 'en', 1280);
    const page = await context.newPage();
    await signInAt(page, '/admin/fair-price-products', 'fp-chief', PASSWORD);

    // --- the good
    const products = page.locator('[data-screen="fair-price-product-list"]:not([data-state])');
    await products.waitFor();
    await expect.poll(() => products.innerText()).toContain('BREAD_LOAF_600G');
    await products.locator('[data-action="create"]').click();
    await waitForScreen(page, '[data-screen="fair-price-product-new"]:not([data-state])');
    const field = (pointer: string) => page.locator(`[data-field="${pointer}"]`);
    await field('/code').locator('input').fill('HONEY');
    await field('/nameLt').locator('input').fill('Asal');
    await field('/nameUz').locator('input').fill('Асал');
    await field('/nameRu').locator('input').fill('Мёд');
    await field('/nameEn').locator('input').fill('Honey');
    await field('/defaultUnitId').locator('select').selectOption('1');
    await field('/order').locator('input').fill('250');
    await save(page);
    await waitForScreen(page, '[data-screen="fair-price-product-detail"]:not([data-state])');

    // --- a good taken off the list is not offered to the monitor
    const supervisorToken = await tokenOf('fp-chief', PASSWORD);
    const rice = await api('GET', '/api/fair-price-product/get/7', supervisorToken);
    await api('PUT', '/api/fair-price-product/update/7', supervisorToken, { ...rice, active: false });

    // --- the monitor account, on the delegated screens
    await page.goto(`${portal.url}/admin/fair-price-users`);
    const users = page.locator('[data-screen="fair-price-user-list"]:not([data-state])');
    await users.waitFor();
    await users.locator('[data-action="create"]').click();
    const form = page.locator('[data-screen="fair-price-user-new"]:not([data-state])');
    await form.waitFor();
    // The administrators' fields are not offered here.
    expect(
      await form
        .locator('[data-field="/isOuter"] input[type=checkbox], [data-field="/canRegister"] input[type=checkbox]')
        .count(),
    ).toBe(0);
    await field('/username').locator('input').fill('fp-monitor-1');
    await field('/lastName').locator('input').fill('Rahimov');
    await field('/firstName').locator('input').fill('Aziz');
    await field('/roles').locator('[role="combobox"]').first().click();
    // The view offers exactly the roles the supervisor may grant.
    await expect.poll(() => page.locator('.fui-Option').allInnerTexts()).toEqual(['Price monitor']);
    await page.locator('.fui-Option', { hasText: 'Price monitor' }).click();
    await page.keyboard.press('Escape');
    await field('/regionId').locator('select').selectOption(String(REGION));
    await field('/passport').locator('input').fill('AB1234567');
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 360, height: 800 });
    await save(page);
    await waitForScreen(page, '[data-screen="fair-price-user-detail"]:not([data-state])');
    // The new account's page is named by the person (the manifest's titleFields), not "Users № 5".
    await expect
      .poll(() => page.locator('[data-screen="fair-price-user-detail"]:not([data-state]) h1').innerText())
      .toBe('Rahimov Aziz');

    // The list at 360 px: the new monitor, and no one else (not the supervisor, not the administrator).
    await phone.goto(`${portal.url}/admin/fair-price-users`);
    await waitForScreen(phone, '[data-screen="fair-price-user-list"]:not([data-state])');
    await expect
      .poll(() => phone.locator('[data-screen="fair-price-user-list"]:not([data-state])').innerText())
      .toContain('fp-monitor-1');
    const listText = await phone.locator('[data-screen="fair-price-user-list"]:not([data-state])').innerText();
    expect(listText).not.toContain('fp-chief');
    expect(listText).not.toMatch(/\badmin\b/);
    await phone.screenshot({ path: path.join(SHOTS, 'fair-price-users-360.png'), fullPage: true });
    await phone.goto(`${portal.url}/admin/fair-price-users/new`);
    await waitForScreen(phone, '[data-screen="fair-price-user-new"]:not([data-state])');
    await phone.locator('[data-field="/username"]').waitFor();
    await phone.screenshot({ path: path.join(SHOTS, 'fair-price-user-new-360.png'), fullPage: true });

    const list = await api('POST', '/api/portal-user/list-search', supervisorToken, { itemsPerPage: 10 });
    const created = (list.list as Array<{ id: number; username: string; roles: string[]; regionId: number }>).find(
      (u) => u.username === 'fp-monitor-1',
    )!;
    expect(created).toMatchObject({ roles: ['price-monitor'], regionId: REGION });
    // The password: the supervisor sets it on the monitor's page.
    await page.locator('[data-screen="fair-price-user-detail"] [data-action="set-password"]').click();
    const dialog = page.locator('[data-dialog="record-action"]');
    await dialog.locator('[data-field="/password"] input').fill('monitor-pass-1');
    await dialog.locator('[data-field="/confirmPassword"] input').fill('monitor-pass-1');
    // The dialog also closes on a refusal (shown as a toast): the server's answer must be a success,
    // and the new password must open a session.
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/set-password'));
    await dialog.locator('[data-action="send"]').click();
    const reply = await answer;
    expect(reply.status(), `set-password: ${await reply.text()}`).toBe(200);
    await dialog.waitFor({ state: 'detached' });
    await tokenOf('fp-monitor-1', 'monitor-pass-1');
    await context.close();

    // --- the monitor enters a price of the new good
    const monitorContext = await newPortalContext(browser, 'en', 1280);
    const monitorPage = await monitorContext.newPage();
    await signInAt(monitorPage, '/admin/fair-prices/new', 'fp-monitor-1', 'monitor-pass-1');
    await waitForScreen(monitorPage, '[data-screen="fair-price-new"]:not([data-state])');
    const product = monitorPage.locator('[data-field="/productId"] select');
    await monitorPage.waitForFunction(() =>
      [
        ...((document.querySelector('[data-field="/productId"] select') as HTMLSelectElement | null)?.options ?? []),
      ].some((o) => o.text === 'Honey'),
    );
    const offered = await product.locator('option').allInnerTexts();
    expect(offered).toContain('Honey');
    expect(offered).not.toContain('Rice');
    const mfield = (pointer: string) => monitorPage.locator(`[data-field="${pointer}"]`);
    await product.selectOption({ label: 'Honey' });
    await mfield('/unitId').locator('select').selectOption('1');
    await mfield('/marketTypeId').locator('select').selectOption('2');
    await mfield('/regionId').locator('select').selectOption(String(REGION));
    const [y, m, d] = TODAY.split('-');
    await mfield('/date').locator('input').first().fill(`${d}.${m}.${y}`);
    await mfield('/minPrice').locator('input').fill('80000');
    await mfield('/maxPrice').locator('input').fill('120000');
    await mfield('/avgPrice').locator('input').fill('95000');
    await mfield('/avgPrice').locator('input').blur();
    await save(monitorPage);
    await waitForScreen(monitorPage, '[data-screen="fair-price-detail"]:not([data-state])');
    await monitorContext.close();

    // --- the public page names it (at 360 px, in Russian too)
    for (const [locale, name] of [
      ['en', 'Honey'],
      ['ru', 'Мёд'],
    ] as const) {
      const publicContext = await newPortalContext(browser, locale, 360);
      const pub = await publicContext.newPage();
      await pub.goto(`${portal.url}/fair-price`);
      await pub.locator('[data-panel="prices"] [data-row]').first().waitFor();
      await pub.selectOption('[data-filter="marketTypeId"]', '2');
      await expect.poll(() => pub.locator('[data-panel="prices"]').innerText()).toContain(name);
      const row = pub.locator('[data-panel="prices"] [data-row]', { hasText: name });
      await expect.poll(() => row.innerText()).toMatch(/80[\s\u00a0 ,.]?000/);
      await pub.screenshot({ path: path.join(SHOTS, `fair-price-new-good-360-${locale}.png`), fullPage: true });
      await publicContext.close();
    }
  });
});
