/**
 * Roles administration in plain language, in Chromium (issue #17, item 6): the administrator
 * opens a role in Russian and sees its permissions as a matrix of record types by their Russian
 * titles with ticks — no "read PharmacyAppeal", no "/regionId" pointers — and the role's
 * Russian name as the page title; a user's page names the user (not "№ 13") and shows their
 * roles by their Russian names. One portal, one browser; screenshots at 1280 and 360 px in
 * ru and uzCyrillic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
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
type Texts = Record<string, { entity: Record<string, Record<string, unknown>> }>;
const textsOf = (entity: string): Texts =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, `schemas/${entity}/i18n.json`), 'utf8')) as Texts;
const roleName = (locale: string, code: string) =>
  (textsOf('portal-role')[locale]!.entity['portal-role']!.role as Record<string, string>)[code]!;
const entityTitle = (locale: string, entity: string) => textsOf(entity)[locale]!.entity[entity]!.title as string;

/** What must never show on a role page: permission strings and JSON pointers. */
const PERMISSION_CODE = /\b(read|create|update|delete|manage) [A-Z][A-Za-z]+\b/;
const POINTER = /(^|\s)\/[a-z][A-Za-z]*/m;

describe.skipIf(!browserTestsEnabled())('roles in plain language, in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let page: Page;
  let roleId: number;
  let userId: number;
  const main = () => page.locator('main').first();
  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  const useLocale = async (locale: string) => {
    await page.evaluate((l) => localStorage.setItem('portal.locale', JSON.stringify(l)), locale);
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    const { tokenOf, api } = portalApi(portal.url);
    const token = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    const roles = await api(token, 'POST', '/api/portal-role/list-search?keyword=executor', {
      page: 0,
      itemsPerPage: 10,
    });
    roleId = (roles.list as Array<{ id: number; code: string }>).find((r) => r.code === 'executor')!.id;
    const user = await api(token, 'POST', '/api/portal-user/create', {
      username: 'v.aliyev',
      lastName: 'Aliyev',
      firstName: 'Vali',
      isOuter: false,
      canLogin: true,
      roles: ['executor', 'employee'],
    });
    userId = Number(user.id);
    browser = await launchBrowser();
    page = await (await newPortalContext(browser, 'ru')).newPage();
    await signInThroughForm(page, `${portal.url}/admin/roles/${roleId}`, 'admin', TEST_ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('ru, 1280: the role page is a matrix of Russian record types with ticks, named by the role', async () => {
    await waitForScreen(page, '[data-screen="portal-role-detail"] [data-permission-matrix="read"]');
    const matrix = page.locator('[data-permission-matrix]');
    const row = matrix.locator('tr[data-subject="PharmacyAppeal"]');
    expect(await row.locator('th').innerText()).toBe(entityTitle('ru', 'pharmacy-appeal'));
    expect(await row.locator('[data-permission="read PharmacyAppeal"]').getAttribute('data-granted')).toBe('explicit');
    expect(await row.locator('[data-permission="delete PharmacyAppeal"]').getAttribute('data-granted')).toBe('none');
    // The machine's events by their Russian labels, not their codes.
    const events = await matrix.locator('[data-actions="PharmacyAppeal"]').innerText();
    expect(events).not.toMatch(/[A-Z]{3,}_[A-Z]+/);
    expect(events.length).toBeGreaterThan(0);
    expect(await matrix.locator('thead').innerText()).toContain('Просмотр');
    // The field rules by their titles.
    const rules = page.locator('[data-field="/readOnlyFields"] [data-field-rules]');
    expect(await rules.locator('[data-rule="PharmacyAppeal"]').innerText()).toContain(
      entityTitle('ru', 'pharmacy-appeal'),
    );
    // Each record type's fields are named once its schema has loaded.
    await expect.poll(() => rules.locator('[data-state="loading"]').count()).toBe(0);
    const text = await main().innerText();
    expect(text).not.toMatch(PERMISSION_CODE);
    expect(text).not.toMatch(POINTER);
    // The page and the tab are named by the role in Russian, not "Роль № 12".
    const name = roleName('ru', 'executor');
    expect(await page.locator('main h1').innerText()).toBe(name);
    expect(await page.title()).toMatch(new RegExp(`^${name} — `));
    expect(await axeProblems(page, ['[data-screen="portal-role-detail"]'])).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'roles-role-ru-1280.png'), fullPage: true });

    // The role list names the roles in Russian too.
    await page.goto(`${portal.url}/admin/roles`);
    await waitForScreen(page, '[data-screen="portal-role-list"]:not([data-state])');
    await expect.poll(() => main().innerText()).toContain(roleName('ru', 'commission-member'));
  });

  it('ru, 1280: editing, the matrix has boxes and the events open under their row', async () => {
    await page.goto(`${portal.url}/admin/roles/${roleId}/edit`);
    await waitForScreen(page, '[data-screen="portal-role-edit"] [data-permission-matrix="edit"]');
    const matrix = page.locator('[data-permission-matrix]');
    expect(await matrix.locator('input[data-permission="read PharmacyAppeal"]').isChecked()).toBe(true);
    expect(await matrix.locator('input[data-permission="delete PharmacyAppeal"]').isChecked()).toBe(false);
    await matrix.locator('[data-expand="PharmacyAppeal"]').click();
    expect(await matrix.locator('[data-events="PharmacyAppeal"]').innerText()).not.toMatch(/[A-Z]{3,}_[A-Z]+/);
    expect(await page.locator('main h1').innerText()).toContain(roleName('ru', 'executor'));
    expect(await page.locator('main').first().innerText()).not.toMatch(PERMISSION_CODE);
    await page.screenshot({ path: path.join(SHOTS, 'roles-role-edit-ru-1280.png'), fullPage: true });
  });

  it("ru, 1280: a user's page is named by the user and shows the roles by their Russian names", async () => {
    await page.goto(`${portal.url}/admin/users/${userId}`);
    await waitForScreen(page, '[data-screen="portal-user-detail"] [data-field="/roles"] [data-chosen]');
    expect(await page.locator('main h1').innerText()).toBe('Aliyev Vali');
    expect(await page.title()).not.toMatch(/№\s*\d+/);
    expect(await page.title()).toMatch(/^Aliyev Vali — /);
    const chips = await page.locator('[data-field="/roles"] [data-chosen]').innerText();
    expect(chips).toContain(roleName('ru', 'executor'));
    expect(chips).toContain(roleName('ru', 'employee'));
    expect(chips).not.toMatch(/\bexecutor\b/);
    expect(await axeProblems(page, ['[data-screen="portal-user-detail"]'])).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'roles-user-ru-1280.png'), fullPage: true });
  });

  it('ru and uzCyrillic at 360 and 1280: the matrix fits a phone, names in Cyrillic Uzbek', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`${portal.url}/admin/roles/${roleId}`);
    await waitForScreen(page, '[data-screen="portal-role-detail"] [data-permission-matrix="read"]');
    expect(await sideways()).toBe(false);
    expect(await axeProblems(page, ['[data-screen="portal-role-detail"]'])).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'roles-role-ru-360.png'), fullPage: true });

    await useLocale('uzCyrillic');
    await page.reload();
    await waitForScreen(page, '[data-screen="portal-role-detail"] [data-permission-matrix="read"]');
    await expect.poll(() => page.locator('main h1').innerText()).toBe(roleName('uzCyrillic', 'executor'));
    expect(await page.locator('tr[data-subject="PharmacyAppeal"] th').innerText()).toBe(
      entityTitle('uzCyrillic', 'pharmacy-appeal'),
    );
    expect(await sideways()).toBe(false);
    await page.screenshot({ path: path.join(SHOTS, 'roles-role-uzCyrillic-360.png'), fullPage: true });

    await page.goto(`${portal.url}/admin/users/${userId}`);
    await waitForScreen(page, '[data-screen="portal-user-detail"] [data-field="/roles"] [data-chosen]');
    expect(await page.locator('[data-field="/roles"] [data-chosen]').innerText()).toContain(
      roleName('uzCyrillic', 'executor'),
    );
    expect(await sideways()).toBe(false);
    await page.screenshot({ path: path.join(SHOTS, 'roles-user-uzCyrillic-360.png'), fullPage: true });

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${portal.url}/admin/roles/${roleId}/edit`);
    await waitForScreen(page, '[data-screen="portal-role-edit"] [data-permission-matrix="edit"]');
    await page.screenshot({ path: path.join(SHOTS, 'roles-role-edit-uzCyrillic-1280.png'), fullPage: true });
    await page.goto(`${portal.url}/admin/roles/${roleId}`);
    await waitForScreen(page, '[data-screen="portal-role-detail"] [data-permission-matrix="read"]');
    expect(await main().innerText()).not.toMatch(PERMISSION_CODE);
    await page.screenshot({ path: path.join(SHOTS, 'roles-role-uzCyrillic-1280.png'), fullPage: true });
  });
});
