/**
 * Organisation and profile in Debian's Chromium, as a person uses them: the organisation
 * tree (seeded central office and 14 regional departments), adding a unit under one of
 * them, an administrator setting another user's password on the Users screen, and the
 * profile page — a photo that becomes the header's avatar, and a password change refused
 * with its field errors and then accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { deflateSync, crc32 } from 'node:zlib';
import {
  browserTestsEnabled,
  launchBrowser,
  startPortal,
  newPortalContext,
  signInThroughForm,
} from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';

/** Where the screenshots go (looked at by a person, not compared). */
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp';

/** A real PNG of one colour, 96×96: a visible avatar. */
function solidPng(r: number, g: number, b: number, size = 96): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe.skipIf(!browserTestsEnabled())('organisation and profile in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let page: Page;
  beforeAll(async () => {
    portal = await startPortal();
    browser = await launchBrowser();
    const context = await newPortalContext(browser);
    page = await context.newPage();
    await signInThroughForm(page, `${portal.url}/admin/departments`, 'admin', TEST_ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('shows the organisation tree and adds a unit under a regional department', async () => {
    const tree = page.locator('[data-screen="department-tree"]');
    await tree.waitFor();
    // The committee is open: it and its 14 regional departments show.
    await expect.poll(() => tree.locator('[data-node]').count()).toBe(15);
    await expect
      .poll(() => tree.locator('[role="treeitem"][aria-level="1"]').innerText())
      .toContain('Committee for Competition Development');
    await expect.poll(() => tree.innerText()).toContain('Bukhara Region regional department');
    await page.screenshot({ path: `${SHOTS}/org-tree.png`, fullPage: true });

    // The deepest node with the name: the committee's node contains it too.
    const bukhara = tree.locator('[data-node]', { hasText: 'Bukhara Region regional department' }).last();
    const id = await bukhara.getAttribute('data-node');
    await bukhara.locator('[data-action="add-child"]').first().click();
    await page.locator('[data-screen="department-new"]').waitFor();
    expect(new URL(page.url()).search).toBe(`?parentId=${id}`);
    // The parent field shows the chosen unit by its name, not its number.
    await expect
      .poll(() => page.locator('[data-field="/parentId"] input').inputValue())
      .toBe('Buxoro viloyati hududiy boshqarmasi');
    await page.locator('[data-field="/nameLt"] input').fill('Yuridik bo‘lim');
    await page.locator('[data-field="/code"] input').fill('R1706-LAW');
    await page.locator('[data-field="/departmentTypeId"] select').selectOption('4');
    await page.locator('[data-action="save"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    await page.locator('[data-screen="department-detail"]').waitFor();

    await page.goto(`${portal.url}/admin/departments`);
    await tree.waitFor();
    const branch = tree.locator(`[data-node="${id}"]`);
    await branch.locator('.fui-TreeItemLayout').first().click();
    await expect.poll(() => branch.innerText()).toContain('Yuridik bo‘lim');
  });

  it("sets another user's password from the Users screen: a mismatch on its field, then the user signs in with it", async () => {
    const api = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${portal.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const admin = await api('/api/auth-payload', { username: 'admin', password: TEST_ADMIN_PASSWORD });
    const user = await api(
      '/api/portal-user/create',
      {
        username: 'new-clerk',
        firstName: 'Nodira',
        lastName: 'Tosheva',
        isOuter: false,
        canLogin: true,
        roles: ['employee'],
        regionId: 1,
      },
      admin.body.token as string,
    );
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    await page.goto(`${portal.url}/admin/users/${user.body.id}`);
    await page.locator('[data-screen="portal-user-detail"] [data-action="set-password"]').click();
    const dialog = page.locator('[data-dialog="record-action"]');
    await dialog.locator('[data-field="/password"] input').fill('clerk password 1');
    await dialog.locator('[data-field="/confirmPassword"] input').fill('clerk password 2');
    await dialog.locator('[data-action="send"]').click();
    await expect
      .poll(() => dialog.locator('[data-field="/confirmPassword"]').innerText())
      .toContain('The passwords do not match');
    await page.screenshot({ path: `${SHOTS}/org-set-password.png` });
    await dialog.locator('[data-field="/confirmPassword"] input').fill('clerk password 1');
    // The form's save lock (3 s) holds the second click until it has passed.
    await expect
      .poll(async () => {
        if (await dialog.count())
          await dialog
            .locator('[data-action="send"]')
            .click({ timeout: 1000 })
            .catch(() => undefined);
        return dialog.count();
      })
      .toBe(0);
    expect((await api('/api/auth-payload', { username: 'new-clerk', password: 'clerk password 1' })).status).toBe(200);
  });

  it('uploads a photo that becomes the avatar, and changes the password', async () => {
    await page.locator('[data-action="open-profile"]').click();
    const profile = page.locator('[data-screen="profile"]');
    await profile.waitFor();
    await expect.poll(() => profile.locator('[data-role="admin"]').count()).toBe(1);
    expect(await page.locator('header [data-avatar="image"], [data-user] [data-avatar="image"]').count()).toBe(0);

    await profile
      .locator('[data-field="/avatar"]')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: solidPng(0, 120, 212) });
    await page.locator('[data-user] [data-avatar="image"]').waitFor();
    await profile.locator('img').first().waitFor();

    const field = (name: string) => profile.locator(`[data-field="/${name}"]`);
    await field('oldPassword').locator('input').fill('not the password');
    await field('newPassword').locator('input').fill('a new password 2');
    await field('confirmPassword').locator('input').fill('a new password 3');
    // The strength meter's verdict arrives after typing and its words can take another line,
    // moving the button: a person clicks once it has settled.
    await expect
      .poll(() => profile.locator('[data-password-meter]').getAttribute('data-password-meter'))
      .toMatch(/^[0-4]$/);
    await profile.locator('[data-action="change-password"]').click();
    await expect.poll(() => field('confirmPassword').innerText()).toContain('The passwords do not match');
    await field('confirmPassword').locator('input').fill('a new password 2');
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/auth/change-password'));
    await profile.locator('[data-action="change-password"]').click();
    expect((await refused).status()).toBe(400);
    await expect.poll(() => field('oldPassword').innerText()).toContain('The current password is wrong');
    await page.screenshot({ path: `${SHOTS}/org-profile.png`, fullPage: true });

    await field('oldPassword').locator('input').fill(TEST_ADMIN_PASSWORD);
    await profile.locator('[data-action="change-password"]').click();
    await expect.poll(() => field('oldPassword').locator('input').inputValue()).toBe('');
    const signIn = await fetch(`${portal.url}/api/auth-payload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'a new password 2' }),
    });
    expect(signIn.status).toBe(200);
  });
});
