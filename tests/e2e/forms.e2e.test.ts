/**
 * Forms and dialogs in Chromium, as a keyboard and phone user meets them: the skip link is the
 * first Tab stop; the sign-in form signs in by Enter, and a wrong password stays in the form as
 * its error summary (an alert with the focus, not a toast); a confirmation names the action and
 * the status it leads to; an invalid submit at 360 px brings the error summary into view with
 * the focus, and its links go to the fields; every screen kind has exactly one h1. Screenshots
 * at 1280 and 360 px in ru and uzCyrillic go to .tmp/screenshots/forms-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
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
import { SHOTS } from '../support/public-browser.ts';
import { createSampler } from '../support/sample-data.ts';
import { registry } from '../support/workflow-browser.ts';

const ENTITY = 'pharmacy-appeal';
const LIST = '/admin/pharmacy-appeals';
type MachineTexts = Record<
  string,
  { workflow: Record<string, { events: Record<string, string>; states: Record<string, string> }> }
>;
/** The machine's own words for an event and a state, in a language. */
const machineTexts = JSON.parse(
  readFileSync(path.join(REPO_ROOT, 'workflows/pharmacy-appeal.i18n.json'), 'utf8'),
) as MachineTexts;
const words = (locale: string) => machineTexts[locale]!.workflow[ENTITY]!;

/** What has the focus: its `data-action`, `data-region` or id. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.dataset.action ?? el?.dataset.region ?? el?.id ?? el?.tagName ?? '';
  });

/** Whether the element's top edge is within the viewport (below the sticky header). */
const inView = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.top < window.innerHeight && box.bottom > 0;
  });

describe.skipIf(!browserTestsEnabled())('forms and dialogs in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let recordId: number;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await launchBrowser();
    const { tokenOf, api } = portalApi(portal.url);
    const def = registry.entities.get(ENTITY)!;
    const data = createSampler(def.schema, registry.references, createServerAjv())(17, { full: true });
    delete data.executorId;
    const record = (await api(
      await tokenOf('admin', TEST_ADMIN_PASSWORD),
      'POST',
      `/api${def.manifest.base}/create`,
      data,
    )) as {
      id: number;
    };
    recordId = Number(record.id);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('skip link first; Enter signs in; a wrong password stays in the form; a confirmation names action and state; a phone’s invalid submit shows the summary', async () => {
    const page = await (await newPortalContext(browser, 'en', 1280)).newPage();
    await page.goto(`${portal.url}/login?redirect=${encodeURIComponent(`${LIST}/${recordId}`)}`);
    await waitForScreen(page, '[data-screen="login"]:not([data-state])');
    expect(await page.locator('h1').count()).toBe(1);

    // The first Tab stop is the skip link, shown while it has the focus; it moves the focus to the page.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('skip-to-main');
    expect(await inView(page, '[data-action="skip-to-main"]')).toBe(true);
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('main');

    // A wrong password, sent by Enter: an alert in the form with the focus, not a toast.
    await page.locator('[data-field="/username"] input').fill('admin');
    await page.locator('[data-field="/password"] input').fill('wrong password!');
    await page.locator('[data-field="/password"] input').press('Enter');
    const refusal = page.locator('[data-screen="login"] [data-region="error-summary"][role="alert"]');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('Wrong username or password');
    expect(await focused(page)).toBe('error-summary');
    expect(await page.locator('[data-toast]').count()).toBe(0);
    // Its link goes to the password.
    await refusal.locator('a').click();
    expect(await page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-field'))).toBe(
      '/password',
    );

    // The right password, by Enter again (once the one-second pause after a try is over).
    await page.locator('[data-action="sign-in"]:not([disabled])').waitFor();
    await page.locator('[data-field="/password"] input').fill(TEST_ADMIN_PASSWORD);
    await page.locator('[data-field="/password"] input').press('Enter');
    await waitForScreen(page, '[data-screen="pharmacy-appeal-detail"] [data-region="transitions"]');

    // A confirmation names the action and the status it leads to; its button is the action.
    await page.locator('[data-event="ASSIGN_TO_REGION"]').click();
    const prompt = page.locator('[data-dialog="confirm"]');
    await prompt.waitFor();
    const action = 'Send to the region';
    expect(await prompt.innerText()).toContain(`${action}?`);
    expect(await prompt.innerText()).toContain('will get the status “Sent to the region”');
    expect(await prompt.locator('[data-action="confirm"]').innerText()).toBe(action);
    await prompt.locator('[data-action="cancel"]').click();
    await prompt.waitFor({ state: 'hidden' });

    // An invalid submit on a phone: the summary is in view with the focus; a link goes to its field.
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`${portal.url}${LIST}/new`);
    await waitForScreen(page, '[data-screen="pharmacy-appeal-new"] [data-action="save"]');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.locator('[data-action="save"]').click();
    const summary = page.locator('[data-region="error-summary"]');
    await summary.waitFor();
    await expect.poll(() => focused(page)).toBe('error-summary');
    expect(await inView(page, '[data-region="error-summary"]')).toBe(true);
    expect(await summary.getAttribute('role')).toBe('alert');
    const link = summary.locator('a[data-error-link]').first();
    const pointer = (await link.getAttribute('data-error-link'))!;
    await link.click();
    expect(await page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-field'))).toBe(
      pointer,
    );
    expect(await inView(page, `[data-field="${pointer}"]`)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);

    // Exactly one h1 on a screen of each kind.
    await page.setViewportSize({ width: 1280, height: 900 });
    const routes = [
      LIST, // list
      `${LIST}/${recordId}`, // detail
      '/admin/departments', // tree
      '/admin/messenger', // messenger
      '/admin/data-health', // dashboard
      '/profile', // profile
      '/faq', // page
      '/court-table', // lookup
      '/surveys', // questionnaire
      '/forgot-password', // flow
      '/admin/compliance-cases/new', // wizard
    ];
    const counts: Record<string, number> = {};
    for (const route of routes) {
      await page.goto(`${portal.url}${route}`);
      await waitForScreen(page, '[data-screen]:not([data-state]) h1');
      counts[route] = await page.locator('h1').count();
    }
    expect(counts).toEqual(Object.fromEntries(routes.map((r) => [r, 1])));
    await page.context().close();
  });

  it('looks right in ru and uzCyrillic at 1280 and 360 px (screenshots)', async () => {
    const refuse = async (page: Page) => {
      await page.goto(`${portal.url}/login`);
      await waitForScreen(page, '[data-screen="login"]:not([data-state])');
      await page.locator('[data-field="/username"] input').fill('admin');
      await page.locator('[data-field="/password"] input').fill('wrong password!');
      await page.locator('[data-field="/password"] input').press('Enter');
      await page.locator('[data-region="error-summary"]').waitFor();
    };
    const ask = async (page: Page, locale: string) => {
      await page.goto(`${portal.url}${LIST}/${recordId}`);
      await waitForScreen(page, '[data-event="ASSIGN_TO_REGION"]');
      await page.locator('[data-event="ASSIGN_TO_REGION"]').click();
      const prompt = page.locator('[data-dialog="confirm"]');
      await prompt.waitFor();
      expect(await prompt.innerText()).toContain(`${words(locale).events.ASSIGN_TO_REGION}?`);
      expect(await prompt.innerText()).toContain(`«${words(locale).states.SEND_TO_REGION}»`);
    };
    const refused = async (page: Page) => {
      await page.goto(`${portal.url}${LIST}/new`);
      await waitForScreen(page, '[data-screen="pharmacy-appeal-new"] [data-action="save"]');
      await page.locator('[data-action="save"]').click();
      await expect.poll(() => focused(page)).toBe('error-summary');
    };
    const shot = (page: Page, name: string) =>
      page.screenshot({ path: path.join(SHOTS, `forms-${name}.png`), animations: 'disabled' });
    for (const locale of ['ru', 'uzCyrillic']) {
      // Each width loads its pages afresh (the menu is a drawer, closed, on a phone).
      const page = await (await newPortalContext(browser, locale, 360)).newPage();
      await refuse(page);
      await shot(page, `signin-error-${locale}-360`);
      await page.setViewportSize({ width: 1280, height: 900 });
      await refuse(page);
      await shot(page, `signin-error-${locale}-1280`);
      await signInThroughForm(page, `${portal.url}${LIST}/${recordId}`, 'admin', TEST_ADMIN_PASSWORD);
      await ask(page, locale);
      await shot(page, `confirm-${locale}-1280`);
      await refused(page);
      await shot(page, `summary-${locale}-1280`);
      await page.setViewportSize({ width: 360, height: 800 });
      await ask(page, locale);
      await shot(page, `confirm-${locale}-360`);
      await refused(page);
      await shot(page, `summary-${locale}-360`);
      await page.context().close();
    }
  });
});
