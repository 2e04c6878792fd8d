/**
 * In-app notifications in Chromium (issue #19 item 1), one portal and one browser: user A
 * (a director) has the notifications screen open; user B (the chair) notifies A about a
 * document from its record page ("Notify colleagues": staff picker + message) and the admin
 * assigns A as the document's executor (a workflow notice) — both appear on A's open screen
 * live, without a reload, with the bell's count; A opens one (it becomes read and leads to the
 * record), then marks all read. Screenshots at 1280 and 360 px in ru and uzCyrillic.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { createServerAjv } from '../../src/server/validation.ts';
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
import { createSampler } from '../support/sample-data.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const PASSWORD = 'notify-e2e-pass-1';
const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const documents = registry.entities.get('correspondence')!;
const BASE = `/api${documents.manifest.base}`;
const sample = createSampler(documents.schema, registry.references, createServerAjv());

describe.skipIf(!browserTestsEnabled())('in-app notifications in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let api: ReturnType<typeof portalApi>['api'];
  let admin: string;
  const ids: Record<string, number> = {};
  let docId: number;

  const pageAs = async (username: string, route: string, locale = 'en', width = 1280) => {
    const page = await (await newPortalContext(browser, locale, width)).newPage();
    await signInThroughForm(page, `${portal.url}${route}`, username, PASSWORD);
    return page;
  };
  const rows = (page: Page) => page.locator('[data-screen="notifications"] [data-notification]');
  const send = async (event: string, payload?: Record<string, unknown>) => {
    const { version } = await api(admin, 'GET', `${BASE}/get/${docId}`);
    await api(admin, 'POST', `${BASE}/transition/${docId}`, { event, version, ...(payload ? { payload } : {}) });
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    const client = portalApi(portal.url);
    api = client.api;
    admin = await client.tokenOf('admin', TEST_ADMIN_PASSWORD);
    for (const [username, roles] of [
      ['e2e-reader', ['director']],
      ['e2e-chair', ['chair']],
    ] as const) {
      const user = await api(admin, 'POST', '/api/portal-user/create', {
        username,
        firstName: username === 'e2e-reader' ? 'Aziza' : 'Bobur',
        lastName: username === 'e2e-reader' ? 'Karimova' : 'Rahimov',
        isOuter: false,
        canLogin: true,
        roles,
      });
      ids[username] = user.id as number;
      await api(admin, 'POST', '/api/auth/set-password', { userId: user.id, password: PASSWORD });
    }
    const data: Record<string, unknown> = { ...sample(3, { full: false, minimal: true }), signerId: 1 };
    delete data.deadline;
    docId = (await api(admin, 'POST', `${BASE}/create`, data)).id as number;
    await send('SEND_TO_COMMISSION_CHAIR');
    await send('MARK_SEEN');
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('A sees what B sends and what a transition causes appear live, opens one (read, to the record) and marks all read', async () => {
    const a = await pageAs('e2e-reader', '/admin/notifications', 'ru');
    await waitForScreen(a, '[data-screen="notifications"]');
    await a.locator('[data-screen="notifications"] [data-state="empty"]').waitFor();
    expect(await a.locator('[data-screen="notifications"] [data-state="empty"]').innerText()).toBe('Уведомлений нет');
    await a.screenshot({ path: path.join(SHOTS, 'notify-empty-ru-1280.png') });

    // B notifies A from the document's page: the staff picker finds A by name.
    const b = await pageAs('e2e-chair', `/admin/documents/${docId}`);
    await waitForScreen(b, `[data-record="${docId}"]`);
    await b.locator('[data-action="notify-colleagues"]').click();
    const dialog = b.locator('[data-dialog="notify-colleagues"]');
    await dialog.locator('[data-field="recipients"]').fill('Karim');
    await b.locator(`[data-staff-user="${ids['e2e-reader']}"]`).click();
    await dialog.locator(`[data-chosen="${ids['e2e-reader']}"]`).waitFor();
    await dialog.locator('[data-field="message"]').fill('Посмотрите, пожалуйста');
    await b.screenshot({ path: path.join(SHOTS, 'notify-send-dialog-en-1280.png') });
    await dialog.locator('[data-action="send"]').click();
    await dialog.waitFor({ state: 'detached' });

    // On A's open screen, without a reload: the note, unread, and the bell's count.
    await rows(a).first().waitFor();
    expect(await rows(a).first().getAttribute('data-read')).toBe('false');
    expect(await rows(a).first().innerText()).toContain('Посмотрите, пожалуйста');
    await a.locator('[data-notifications-unread="1"]').waitFor();
    // The admin assigns A as the executor: a workflow notice arrives the same way.
    await send('ASSIGN_EXECUTOR', { executorId: ids['e2e-reader'] });
    await a.locator('[data-screen="notifications"] [data-notification] >> nth=1').waitFor();
    expect(await rows(a).first().innerText()).toContain('Вам поручено исполнение документа');
    await a.locator('[data-notifications-unread="2"]').waitFor();
    await a.screenshot({ path: path.join(SHOTS, 'notify-list-ru-1280.png') });

    // The bell's popover lists them, with "see all".
    await a.locator('[data-action="counters"]').click();
    const bell = a.locator('[data-region="bell-notifications"]');
    await bell.locator('[data-notification]').nth(1).waitFor();
    expect(await bell.locator('[data-action="see-all"]').getAttribute('href')).toBe('/admin/notifications');
    await a.screenshot({ path: path.join(SHOTS, 'notify-bell-ru-1280.png') });
    await a.keyboard.press('Escape');

    // Opening one by the keyboard marks it read and leads to the record.
    const first = rows(a).first();
    const firstId = await first.getAttribute('data-notification');
    await first.focus();
    await a.keyboard.press('Enter');
    await waitForScreen(a, `[data-record="${docId}"]`);
    await a.locator('[data-notifications-unread="1"]').waitFor();
    await a.goBack();
    await waitForScreen(a, '[data-screen="notifications"]');
    await a.locator(`[data-notification="${firstId}"][data-read="true"]`).waitFor();
    await a.locator('[data-action="mark-all-read"]').click();
    await a.locator('[data-notification][data-read="false"]').waitFor({ state: 'detached' });
    await a.locator('[data-notifications-unread="0"]').waitFor();
    const reader = await portalApi(portal.url).tokenOf('e2e-reader', PASSWORD);
    expect(await api(reader, 'GET', '/api/notifications/unread-count')).toEqual({ count: 0 });

    // B's outgoing box shows the note, to A.
    await b.goto(`${portal.url}/admin/notifications/outgoing`);
    await waitForScreen(b, '[data-screen="notifications-outgoing"]');
    await b.locator('[data-notification]').first().waitFor();
    expect(await b.locator('[data-notification]').first().innerText()).toContain('Karimova');
    await b.context().close();
    await a.context().close();
  });

  it('fits a phone: 360 px in ru and uzCyrillic', async () => {
    for (const locale of ['ru', 'uzCyrillic']) {
      const page = await pageAs('e2e-reader', '/admin/notifications', locale, 360);
      await waitForScreen(page, '[data-screen="notifications"]');
      await page.locator('[data-screen="notifications"] [data-notification]').first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(SHOTS, `notify-list-${locale}-360.png`), fullPage: true });
      await page.locator('[data-action="counters"]').click();
      await page.locator('[data-region="bell-notifications"] [data-notification]').first().waitFor();
      await page.screenshot({ path: path.join(SHOTS, `notify-bell-${locale}-360.png`) });
      await page.context().close();
    }
  });
});
