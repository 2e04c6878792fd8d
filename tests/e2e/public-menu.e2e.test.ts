/**
 * The public services menu in Debian's Chromium: a signed-out visitor's sidebar lists the
 * public screens (those with `permission: "public"` and a `menu`), grouped, in the chosen
 * language, usable by keyboard; on a 360 px phone it is a drawer behind the menu button.
 * Staff see their own sections and then these. Screenshots at 1280 and 360 px go to
 * .tmp/screenshots/public-menu-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import path from 'node:path';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { browserTestsEnabled } from '../support/browser.ts';
import { axeProblems, SHOTS, usePublicPortal } from '../support/public-browser.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const publicMenu = [...registry.screens.values()]
  .filter((s) => s.menu && s.permission === 'public')
  .sort((a, b) => a.menu!.order! - b.menu!.order!);
const menuIds = (page: Page) =>
  page
    .locator('[data-region="menu"] [data-menu]')
    .evaluateAll((links) => links.map((l) => l.getAttribute('data-menu')));

describe.skipIf(!browserTestsEnabled())('public services menu in Chromium', () => {
  const { open, portal: running } = usePublicPortal();

  it('at 1280 px a signed-out visitor sees the public services, grouped, and goes where a link says — by mouse and by keyboard', async () => {
    expect(publicMenu.length).toBeGreaterThan(10);
    const page = await open('/', 1280);
    await page.locator('[data-region="menu"] [data-menu="home"]').waitFor();
    expect(await menuIds(page)).toEqual(publicMenu.map((s) => s.id));
    const sections = await page.locator('[data-region="menu"] [data-section]').allInnerTexts();
    expect(sections.map((t) => t.toLowerCase())).toEqual([
      'appeals and tracking',
      'court',
      'prices and products',
      'information',
    ]);
    expect(await page.locator('[data-region="menu"] [data-menu="home"]').getAttribute('aria-current')).toBe('page');
    await page.screenshot({ path: path.join(SHOTS, 'public-menu-1280.png') });

    await page.locator('[data-menu="fair-price"]').click();
    await page.locator('[data-screen="fair-price"]').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/fair-price');
    expect(await page.locator('[data-menu="fair-price"]').getAttribute('aria-current')).toBe('page');

    // Keyboard only: Tab from the menu button reaches the links; Enter follows one.
    await page.locator('[data-action="menu"]').focus();
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.getAttribute('data-menu') === 'faq');
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator('[data-screen="faq"]').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/faq');
    expect(await axeProblems(page, ['[data-region="menu"]', '[data-region="header"]'])).toEqual([]);
    await page.context().close();
  });

  it('speaks the chosen language', async () => {
    const page = await open('/', 1280, 'ru');
    await page.locator('[data-region="menu"] [data-menu="court-table"]').waitFor();
    expect(await page.locator('[data-region="menu"] [data-section]').allTextContents()).toEqual([
      'Обращения и отслеживание',
      'Суд',
      'Цены и товары',
      'Информация',
    ]);
    expect(await page.locator('[data-menu="court-table"]').innerText()).toBe('График судебных заседаний');
    await page.context().close();
  });

  it('at 360 px the menu is a drawer: the button opens it, Escape or a link closes it, nothing sticks out', async () => {
    const page = await open('/', 360);
    await page.locator('[data-screen="home"]').first().waitFor();
    expect(await page.locator('[data-region="menu"]').count()).toBe(0);
    const button = page.locator('[data-action="menu"]');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    await page.locator('[data-region="menu"] [data-menu="home"]').waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await menuIds(page)).toEqual(publicMenu.map((s) => s.id));
    // Focus moved into the drawer; the drawer fits the phone's width.
    expect(await page.evaluate(() => document.activeElement?.closest('[data-region="menu"]') !== null)).toBe(true);
    const box = (await page.locator('[data-region="menu"]').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    await page.screenshot({ path: path.join(SHOTS, 'public-menu-360.png') });

    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-region="menu"]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe('menu');

    await page.keyboard.press('Enter');
    await page.locator('[data-menu="court-table"]').click();
    await page.locator('[data-screen="court-table"]').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/court-table');
    await expect.poll(() => page.locator('[data-region="menu"]').count()).toBe(0);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).toBe(true);

    // The dimmed page behind the drawer closes it too.
    await button.click();
    await page.locator('[data-region="menu-backdrop"]').click({ position: { x: 340, y: 400 } });
    await expect.poll(() => page.locator('[data-region="menu"]').count()).toBe(0);
    await page.context().close();
  });

  it('staff see their own sections first, then the public services', async () => {
    const page = await open('/login', 1280);
    await page.locator('[data-field="/username"] input').fill('admin');
    await page.locator('[data-field="/password"] input').fill(TEST_ADMIN_PASSWORD);
    await page.locator('[data-action="sign-in"]').click();
    await page.locator('[data-user="admin"]').waitFor();
    await page.locator('[data-region="menu"] [data-menu="portal-user-list"]').waitFor();
    const ids = await menuIds(page);
    expect(ids.slice(-publicMenu.length)).toEqual(publicMenu.map((s) => s.id));
    expect(ids.length).toBeGreaterThan(publicMenu.length + 5);
    await page.context().close();
  });
});
