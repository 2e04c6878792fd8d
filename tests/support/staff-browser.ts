/**
 * The set-up most staff browser tests share: one portal, one Chromium, an admin token for
 * arranging data through the API, and a page opener that signs a user in through the form.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { launchBrowser, newPortalContext, portalApi, signInThroughForm, startPortal } from './browser.ts';
import { TEST_ADMIN_PASSWORD, userRecord } from './app.ts';

/** Where browser tests put their screenshots. */
export const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');

/** What {@link openStaffBrowser} gives a test file. */
export interface StaffBrowser {
  portal: Awaited<ReturnType<typeof startPortal>>;
  browser: Browser;
  api: ReturnType<typeof portalApi>['api'];
  tokenOf: ReturnType<typeof portalApi>['tokenOf'];
  /** The first-start admin's token. */
  admin: string;
  /** Creates a staff (or, with `isOuter`, an outer) user of `roles` who can sign in with `password`; answers their id. */
  addUser(
    username: string,
    roles: readonly string[],
    password: string,
    extra?: Record<string, unknown>,
  ): Promise<number>;
  /** A page in a fresh context (`locale`, `width` px), signed in as `user` (default admin) and opened at `route`. */
  pageAs(route: string, locale?: string, width?: number, user?: { username: string; password: string }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Starts the portal (`options` go to startPortal) and Chromium for one test file.
 *
 * @example let s: StaffBrowser; beforeAll(async () => { s = await openStaffBrowser(); }); afterAll(() => s?.close());
 */
export async function openStaffBrowser(options: Parameters<typeof startPortal>[0] = {}): Promise<StaffBrowser> {
  mkdirSync(SHOTS, { recursive: true });
  const portal = await startPortal(options);
  const { api, tokenOf } = portalApi(portal.url);
  const admin = await tokenOf('admin', TEST_ADMIN_PASSWORD);
  const browser = await launchBrowser();
  return {
    portal,
    browser,
    api,
    tokenOf,
    admin,
    async addUser(username, roles, password, extra = {}) {
      const user = await api(admin, 'POST', '/api/portal-user/create', userRecord(username, roles, extra));
      await api(admin, 'POST', '/api/auth/set-password', { userId: user.id, password });
      return user.id as number;
    },
    async pageAs(route, locale = 'en', width = 1280, user = { username: 'admin', password: TEST_ADMIN_PASSWORD }) {
      const page = await (await newPortalContext(browser, locale, width)).newPage();
      await signInThroughForm(page, `${portal.url}${route}`, user.username, user.password);
      return page;
    },
    async close() {
      await browser.close();
      await portal.close();
    },
  };
}
