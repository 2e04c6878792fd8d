/**
 * Edit rules on screen, in Debian's Chromium: a citizen's appeal returned to them offers
 * "Edit" on their record page; they correct what they filed (the fields they may not change
 * are read-only) and send it again. Staff get no edit or delete button on it, and their edit
 * route says the appeal cannot be changed now; once it is under review staff may only add
 * files — the citizen's file has no remove button for them. Screenshots of the notice at 360
 * px in the four languages go to .tmp/screenshots/edit-rules-locked-*.png.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { LOCALES } from '../../src/shared/locales.ts';
import {
  browserTestsEnabled,
  launchBrowser,
  newPortalContext,
  portalApi,
  startPortal,
  waitForScreen,
  signInThroughForm,
} from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { createSampler } from '../support/sample-data.ts';
import { createRegionPlacer } from '../support/regions.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const PASSWORD = 'edit rules in the browser 9';
const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const { HOME, inRegion } = createRegionPlacer(registry);

describe.skipIf(!browserTestsEnabled())('edit rules on screen in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  const tokenOf = (username: string, password: string) => portalApi(portal.url).tokenOf(username, password);
  const api = (token: string, method: string, url: string, body?: unknown) =>
    portalApi(portal.url).api(token, method, url, body);
  let admin: string;
  beforeAll(async () => {
    portal = await startPortal();
    browser = await launchBrowser();
    admin = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    for (const [username, role, isOuter] of [
      ['citizen-rules', 'citizen', true],
      ['executor-rules', 'executor', false],
    ] as const) {
      const created = await api(admin, 'POST', '/api/portal-user/create', {
        username,
        firstName: 'Rules',
        lastName: role,
        isOuter,
        canLogin: true,
        roles: [role],
        regionId: HOME,
      });
      await api(admin, 'POST', '/api/auth/set-password', { userId: created.id, password: PASSWORD });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** A browser session signed in as `username` at `route` (the sign-in screen first). */
  const openAs = async (username: string, route: string, locale = 'en', width = 1280): Promise<Page> => {
    const page = await (await newPortalContext(browser, locale, width)).newPage();
    await signInThroughForm(page, `${portal.url}${route}`, username, PASSWORD);
    return page;
  };

  it('a citizen corrects a returned appeal and sends it again; staff may not change it', async () => {
    const citizen = await tokenOf('citizen-rules', PASSWORD);
    const data = inRegion(
      registry.entities.get('appeal')!,
      createSampler(
        registry.entities.get('appeal')!.schema,
        registry.references,
        createServerAjv(),
      )(11, { full: true }),
      HOME,
    );
    delete data.reviewDeadline;
    const filed = await api(citizen, 'POST', '/api/appeal/create', {
      ...data,
      applicantType: 'INDIVIDUAL',
      stir: undefined,
      organizationName: undefined,
      content: 'The shop sold me spoiled milk.',
    });
    const id = Number(filed.id);
    await api(admin, 'POST', `/api/appeal/transition/${id}`, {
      event: 'RETURN',
      version: filed.version,
      payload: { reason: 'Please name the shop' },
    });

    // The citizen: Edit on the record page, the returned appeal's form, then Send again.
    const page = await openAs('citizen-rules', `/cabinet/appeals/${id}`);
    await waitForScreen(page, '[data-screen="my-appeal-detail"] [data-region="plain-sentence"]');
    expect(await page.locator('[data-region="plain-sentence"]').innerText()).toContain(
      'You may correct it and send it again.',
    );
    await page.locator('[data-action="edit"]').click();
    await waitForScreen(page, '[data-screen="my-appeal-edit"] [data-field="/content"]');
    expect(page.url()).toContain(`/cabinet/appeals/${id}/edit`);
    // What the citizen may not change is read-only: the applicant type, the personal ID, the deadline.
    expect(await page.locator('[data-field="/customer/pnfl"] input').getAttribute('readonly')).not.toBeNull();
    const content = page.locator('[data-field="/content"] textarea');
    expect(await content.getAttribute('readonly')).toBeNull();
    await content.fill('The shop "Baraka", stall 12, sold me spoiled milk on Monday.');
    await page.locator('[data-action="save"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    await waitForScreen(page, '[data-screen="my-appeal-detail"] [data-region="transitions"]');
    expect(page.url()).toMatch(new RegExp(`/cabinet/appeals/${id}$`));
    await page.locator('[data-region="transitions"] [data-event="RESUBMIT"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    await page.locator('[data-region="plain-status"][data-status="CREATED"]').waitFor();
    expect((await api(admin, 'GET', `/api/appeal/get/${id}`)).content).toBe(
      'The shop "Baraka", stall 12, sold me spoiled milk on Monday.',
    );
    await page.context().close();

    // Staff: no edit or delete on the received appeal; the edit route says why.
    const staff = await openAs('executor-rules', `/admin/appeals/${id}`);
    await waitForScreen(staff, '[data-screen="appeal-detail"] [data-region="transitions"]');
    await staff.locator('[data-region="transitions"] [data-event]').first().waitFor();
    expect(await staff.locator('[data-action="edit"]').count()).toBe(0);
    expect(await staff.locator('[data-action="delete"]').count()).toBe(0);
    await staff.goto(`${portal.url}/admin/appeals/${id}/edit`);
    await waitForScreen(staff, '[data-screen="appeal-edit"] [data-region="locked"]');
    expect(await staff.locator('[data-region="locked"]').innerText()).toContain('This record cannot be changed now');
    expect(await staff.locator('[data-field="/content"]').count()).toBe(0);
    await staff.locator('[data-action="open-record"]').click();
    await waitForScreen(staff, '[data-screen="appeal-detail"]');

    // Under review staff may add files, but not take the citizen's out, nor touch the rest.
    const current = await api(admin, 'GET', `/api/appeal/get/${id}`);
    await api(admin, 'POST', `/api/appeal/transition/${id}`, { event: 'TAKE_FOR_REVIEW', version: current.version });
    await staff.reload();
    await staff.locator('[data-action="edit"]').click();
    await waitForScreen(staff, '[data-screen="appeal-edit"] [data-field="/files"]');
    expect(await staff.locator('[data-field="/content"] textarea').getAttribute('readonly')).not.toBeNull();
    expect(await staff.locator('[data-field="/files"] input[type=file]').count()).toBe(1);
    await staff.context().close();
  }, 240_000);

  it('tells in every language that a closed record cannot be changed now (360 px)', async () => {
    const citizen = await tokenOf('citizen-rules', PASSWORD);
    const data = inRegion(
      registry.entities.get('appeal')!,
      createSampler(
        registry.entities.get('appeal')!.schema,
        registry.references,
        createServerAjv(),
      )(12, { full: true }),
      HOME,
    );
    delete data.reviewDeadline;
    const filed = await api(citizen, 'POST', '/api/appeal/create', data);
    const id = Number(filed.id);
    const route = `/cabinet/appeals/${id}/edit`;
    const first = await openAs('citizen-rules', route);
    await waitForScreen(first, '[data-screen="my-appeal-edit"] [data-field="/content"]');
    await first.context().close();
    // Answered by staff: closed to changes, for the citizen too.
    for (const event of ['TAKE_FOR_REVIEW', 'MARK_SEEN', 'EXPLAIN']) {
      const current = await api(admin, 'GET', `/api/appeal/get/${id}`);
      await api(admin, 'POST', `/api/appeal/transition/${id}`, { event, version: current.version });
    }
    for (const locale of LOCALES) {
      const page = await openAs('citizen-rules', route, locale, 360);
      await waitForScreen(page, '[data-screen="my-appeal-edit"] [data-region="locked"]');
      const text = await page.locator('[data-region="locked"]').innerText();
      expect(text, locale).not.toMatch(/engine\./);
      expect(await page.locator('[data-field="/content"]').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.screenshot({ path: path.join(SHOTS, `edit-rules-locked-${locale}-360.png`), fullPage: true });
      await page.context().close();
    }
  }, 240_000);
});
