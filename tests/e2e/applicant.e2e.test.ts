/**
 * The applicant's side of a workflow in Debian's Chromium: a citizen signs in, finds their
 * appeal under "My appeals", opens it and reads its status as a plain sentence; staff move it
 * (through the API) and the sentence changes — received, under review with its deadline,
 * review extended with the new deadline, answered. No staff name shows. Screenshots of the
 * page at 360 px in the four languages go to .tmp/screenshots/applicant-*.png.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { LOCALES } from '../../src/shared/locales.ts';
import { browserTestsEnabled, launchBrowser, newPortalContext, portalApi, startPortal } from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const PASSWORD = 'correct horse battery';
const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);

describe.skipIf(!browserTestsEnabled())('a citizen follows their appeal in plain words in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  const tokenOf = (username: string, password: string) => portalApi(portal.url).tokenOf(username, password);
  const api = (token: string, method: string, url: string, body?: unknown) =>
    portalApi(portal.url).api(token, method, url, body);
  beforeAll(async () => {
    portal = await startPortal();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** Signs the citizen in, opens My appeals from the menu and the appeal from the list. */
  const openMyAppeal = async (locale: string, width: number): Promise<Page> => {
    const page = await (await newPortalContext(browser, locale, width)).newPage();
    await page.goto(`${portal.url}/login`);
    await page.locator('[data-field="/username"] input').fill('citizen-aziza');
    await page.locator('[data-field="/password"] input').fill(PASSWORD);
    await page.locator('[data-action="sign-in"]').click();
    await page.locator('[data-user="citizen-aziza"]').waitFor();
    // A citizen lands on the cabinet: let it settle before going through the menu.
    await page.locator('[data-screen="my-appeals"] [data-card]').first().waitFor();
    if (!(await page.locator('[data-region="menu"]').isVisible())) await page.locator('[data-action="menu"]').click();
    // The cabinet entry, not the staff's register.
    expect(await page.locator('[data-menu="appeal-list"]').count()).toBe(0);
    await page.locator('[data-menu="my-appeals"]').click();
    await page.locator('[data-screen="my-appeals"] [data-card] [data-action="open"]').first().click();
    await page.locator('[data-screen="my-appeal-detail"] [data-region="plain-sentence"]').waitFor();
    return page;
  };
  const sentence = (page: Page) => page.locator('[data-region="plain-sentence"]').innerText();

  it('shows the status sentence change as staff move the appeal', async () => {
    const admin = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    const created = await api(admin, 'POST', '/api/portal-user/create', {
      username: 'citizen-aziza',
      firstName: 'Aziza',
      lastName: 'Karimova',
      isOuter: true,
      canLogin: true,
      roles: ['citizen'],
    });
    await api(admin, 'POST', '/api/auth/set-password', { userId: created.id, password: PASSWORD });
    const citizen = await tokenOf('citizen-aziza', PASSWORD);
    const data = createSampler(
      registry.entities.get('appeal')!.schema,
      registry.references,
      createServerAjv(),
    )(3, { full: true });
    delete data.reviewDeadline;
    const appeal = await api(citizen, 'POST', '/api/appeal/create', {
      ...data,
      shortDescription: 'Expired milk sold at the market',
    });
    const id = Number(appeal.id);

    const page = await openMyAppeal('en', 1280);
    expect(page.url()).toContain(`/cabinet/appeals/${id}`);
    expect(await sentence(page)).toMatch(
      /^Your appeal was received on \d\d\.\d\d\.\d{4} and is waiting to be taken up\.$/,
    );
    // The staff badge is not shown to the applicant.
    expect(await page.locator('[data-region="transitions"] [data-status]').count()).toBe(0);

    const taken = await api(admin, 'POST', `/api/appeal/transition/${id}`, {
      event: 'TAKE_FOR_REVIEW',
      version: appeal.version,
      comment: 'internal: call the market first',
    });
    const due = String(taken.reviewDeadline).split('-').reverse().join('.');
    await page.reload();
    await page.locator('[data-region="plain-status"][data-status="UNDER_REVIEW"]').waitFor();
    expect(await sentence(page)).toMatch(
      new RegExp(`^Under review since \\d\\d\\.\\d\\d\\.\\d{4} — an answer is due by ${due.replace(/\./g, '\\.')}\\.$`),
    );
    expect(await page.locator('[data-region="plain-deadline"]').innerText()).toContain(due);

    const seen = await api(admin, 'POST', `/api/appeal/transition/${id}`, {
      event: 'MARK_SEEN',
      version: taken.version,
    });
    const extended = await api(admin, 'POST', `/api/appeal/transition/${id}`, {
      event: 'KEEP_UNDER_REVIEW',
      version: seen.version,
      payload: { newDeadline: '2030-05-17', reason: 'An expert opinion is awaited' },
    });
    await page.reload();
    await page.locator('[data-region="plain-status"][data-status="BEING_REVIEWED"]').waitFor();
    expect(await sentence(page)).toContain('an answer is now due by 17.05.2030');
    expect(await page.locator('[data-region="plain-steps"]').innerText()).toContain('An expert opinion is awaited');

    await api(admin, 'POST', `/api/appeal/transition/${id}`, { event: 'TAKE_MEASURES', version: extended.version });
    await page.reload();
    await page.locator('[data-region="plain-status"][data-status="MEASURES_TAKEN"]').waitFor();
    expect(await sentence(page)).toMatch(/^Answered on \d\d\.\d\d\.\d{4}: measures were taken on your appeal\.$/);
    const steps = await page
      .locator('[data-region="plain-steps"] li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-step')));
    expect(steps).toEqual(['created', 'TAKE_FOR_REVIEW', 'MARK_SEEN', 'KEEP_UNDER_REVIEW', 'TAKE_MEASURES']);
    // No staff name or internal comment anywhere on the page, nor in the status history tab.
    await page.locator('[data-tab="transitions"]').click();
    await page.locator('[data-region="transition-history"]').waitFor();
    const text = await page.locator('[data-screen="my-appeal-detail"]').innerText();
    expect(text).not.toContain('internal');
    expect(text).not.toMatch(/Administrator|admin/);
    await page.context().close();

    for (const locale of LOCALES) {
      const phone = await openMyAppeal(locale, 360);
      await phone.locator('[data-region="plain-status"][data-status="MEASURES_TAKEN"]').waitFor();
      expect(await sentence(phone)).not.toMatch(/workflow\./);
      // The page fits the phone: nothing wider than the viewport.
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await phone.screenshot({ path: path.join(SHOTS, `applicant-${locale}-360.png`), fullPage: true });
      await phone
        .locator('[data-region="plain-status"]')
        .screenshot({ path: path.join(SHOTS, `applicant-status-${locale}-360.png`) });
      await phone.context().close();
    }
  }, 300_000); // five browser sessions, one per language: longer than the default on a busy machine
});
