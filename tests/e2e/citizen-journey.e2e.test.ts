/**
 * The citizen's journey in Chromium (issue #17), one portal and one browser: a visitor files an
 * appeal on /murojaat and lands on its confirmation page (the reference large, what happens
 * next, print, track, send another; a reload keeps it; on paper the shell is hidden), follows
 * "track" to the tracking lookup, which opens filled in and shows the status label and the
 * date of the last change; a signed-in citizen's cabinet shows their appeals as cards (no
 * grid, no Excel button). Screenshots at 1280 and 360 px in ru and uzCyrillic go to
 * .tmp/screenshots/journey-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
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
import { fillForm } from '../support/fill-form.ts';
import { appealInput, REFERENCE_PATTERN, submission } from '../support/public-samples.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const appealSchema = registry.entities.get('appeal')!.schema;
const PASSWORD = 'journey horse battery';
const PHONE = '+99893-717-17-17';

describe.skipIf(!browserTestsEnabled())("the citizen's journey in Chromium", () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  const open = async (locale: string, width: number): Promise<Page> =>
    (await newPortalContext(browser, locale, width)).newPage();
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SHOTS, `journey-${name}.png`), fullPage: true });
  /** The same page in another language and width (one sign-in, one context). */
  const view = async (page: Page, locale: string, width: number) => {
    await page.evaluate((l) => localStorage.setItem('portal.locale', JSON.stringify(l)), locale);
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
  };
  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

  let confirmationUrl = '';
  let trackUrl = '';
  it('a visitor files an appeal and lands on its confirmation page; a reload keeps it; on paper only the page is left', async () => {
    const page = await open('ru', 1280);
    await page.goto(`${portal.url}/murojaat`);
    await waitForScreen(page, '[data-screen="murojaat"] [data-field="/shortDescription"]');
    await fillForm(page, appealSchema, appealInput(17, { phone: PHONE, files: undefined }));
    await page.locator('[data-action="save"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    const number = page.locator('[data-region="confirmation"] [data-reference-number]');
    await number.waitFor();
    const reference = await number.innerText();
    expect(reference).toMatch(REFERENCE_PATTERN);
    expect(await page.locator('[data-region="confirmation"] h1').innerText()).toBe('Ваше обращение принято');
    // What happens next: 15 days from today, with the date.
    const next = await page.locator('[data-region="next-steps"]').innerText();
    expect(next).toMatch(/в течение 15 дней — не позднее \d\d\.\d\d\.\d{4}/);
    expect(next).toContain(reference);
    expect(await page.locator('[data-action="print"]').isVisible()).toBe(true);
    expect(await page.locator('[data-action="another"]').getAttribute('href')).toBe('/murojaat');
    confirmationUrl = page.url();
    expect(new URL(confirmationUrl).searchParams.get('sent')).toBe(reference);
    await shot(page, 'confirmation-ru-1280');
    // A reload shows the same page, and the tracking link still carries the phone it was filed with.
    await page.reload();
    await number.waitFor();
    expect(await number.innerText()).toBe(reference);
    trackUrl = (await page.locator('[data-action="track"]').getAttribute('href'))!;
    expect(Object.fromEntries(new URL(trackUrl, portal.url).searchParams)).toEqual({
      tab: 'reference',
      reference,
      phone: PHONE,
      run: '1',
    });
    // On paper: the panel and the texts, not the header, the menu or the buttons.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('[data-region="header"]').isVisible()).toBe(false);
    expect(await page.locator('[data-action="print"]').isVisible()).toBe(false);
    expect(await number.isVisible()).toBe(true);
    await shot(page, 'confirmation-print-ru');
    await page.emulateMedia({ media: 'screen' });

    // "Track" opens the lookup on its reference tab, filled in; it answers by itself.
    await page.locator('[data-action="track"]').click();
    await page.locator('[data-screen="online-watching"] [data-region="tracked-status"]').waitFor();
    expect(await page.locator('[data-region="status-label"]').innerText()).toBe('Поступило');
    expect(await page.locator('[data-region="status-plain"]').innerText()).toMatch(/\d\d\.\d\d\.\d{4}/);
    expect(await page.locator('[data-region="status-changed"]').innerText()).toMatch(/\d\d\.\d\d\.\d{4}/);
    await shot(page, 'track-ru-1280');
    // Another phone: the same plain "not found" as for a wrong number.
    await page.locator('[data-field="/phone"] input').fill('+99893-000-00-00');
    await page.locator('[data-action="search"]').click();
    await page.getByText('Обращение с таким номером обращения').waitFor();
    await page.context().close();
  });

  it('the confirmation page and the tracking answer at 360 px and in uzCyrillic', async () => {
    const page = await open('uzCyrillic', 1280);
    await page.goto(confirmationUrl);
    for (const [locale, width] of [
      ['uzCyrillic', 1280],
      ['uzCyrillic', 360],
      ['ru', 360],
    ] as const) {
      await view(page, locale, width);
      await page.locator('[data-region="confirmation"] [data-reference-number]').waitFor();
      expect(await sideways(page)).toBe(false);
      await shot(page, `confirmation-${locale}-${width}`);
    }
    // The full link works in any browser (this one never filed the appeal).
    await page.goto(`${portal.url}${trackUrl}`);
    for (const [locale, width] of [
      ['ru', 360],
      ['uzCyrillic', 360],
      ['uzCyrillic', 1280],
    ] as const) {
      await view(page, locale, width);
      await page.locator('[data-region="tracked-status"]').waitFor();
      if (locale === 'uzCyrillic')
        expect(await page.locator('[data-region="status-label"]').innerText()).toBe('Қабул қилинган');
      expect(await sideways(page)).toBe(false);
      await shot(page, `track-${locale}-${width}`);
    }
    await page.context().close();
  });

  it("a signed-in citizen's cabinet shows their appeals as cards: reference, status, next step — no grid, no Excel button", async () => {
    const { tokenOf, api } = portalApi(portal.url);
    const admin = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    const user = await api(admin, 'POST', '/api/portal-user/create', {
      username: 'citizen-journey',
      firstName: 'Aziza',
      lastName: 'Karimova',
      isOuter: true,
      canLogin: true,
      roles: ['citizen'],
    });
    await api(admin, 'POST', '/api/auth/set-password', { userId: user.id, password: PASSWORD });
    const citizen = await tokenOf('citizen-journey', PASSWORD);
    const references: string[] = [];
    for (const i of [1, 2]) {
      const body = submission(appealInput(170 + i));
      const res = await fetch(`${portal.url}/api/outer-cabinet/send-appeal`, {
        method: 'POST',
        headers: { ...body.headers, authorization: `Bearer ${citizen}` },
        body: new Uint8Array(body.payload),
      });
      expect(res.status).toBe(200);
      references.push(((await res.json()) as { referenceNumber: string }).referenceNumber);
    }
    const page = await open('ru', 1280);
    await signInThroughForm(page, `${portal.url}/cabinet/appeals`, 'citizen-journey', PASSWORD);
    for (const [locale, width] of [
      ['ru', 1280],
      ['ru', 360],
      ['uzCyrillic', 360],
      ['uzCyrillic', 1280],
    ] as const) {
      if (locale !== 'ru' || width !== 1280) await view(page, locale, width);
      await waitForScreen(page, '[data-screen="my-appeals"][data-presentation="cards"] [data-region="cards"]');
      await page.locator('[data-card] [data-region="card-reference"]').getByText(references[0]!).waitFor();
      expect(await page.locator('[data-card]').count()).toBe(2);
      expect(await page.locator('[data-screen="my-appeals"] .ag-root, [data-action="export"]').count()).toBe(0);
      // No "Version" (common.field.version in ru and uzCyrillic) anywhere on the screen.
      expect(await page.locator('[data-screen="my-appeals"]').innerText()).not.toContain('Версия');
      expect(
        await page.locator('[data-filter]').evaluateAll((xs) => xs.map((x) => x.getAttribute('data-filter'))),
      ).toEqual(['keyword', 'statusId']);
      const card = page.locator('[data-card]').first();
      expect(await card.locator('[data-region="card-status"]').innerText()).toBe(
        locale === 'ru' ? 'Поступило' : 'Қабул қилинган',
      );
      expect(await card.locator('[data-region="card-next"]').innerText()).toMatch(/\d\d\.\d\d\.\d{4}/);
      expect(await sideways(page)).toBe(false);
      await shot(page, `cabinet-${locale}-${width}`);
    }
    // A card opens the applicant's record page.
    await page.locator('[data-card] [data-action="open"]').first().click();
    await page.locator('[data-screen="my-appeal-detail"] [data-region="plain-sentence"]').waitFor();
    await page.context().close();
  });
});
