/**
 * The public services in Debian's Chromium, as a visitor without an account meets them, at
 * 1280 and 360 px: the main page, sending an appeal (invalid, then valid → a reference
 * number), tracking it, case tracking, decision and summons checks, the hearing schedule.
 * axe-core runs on every page (no serious or critical violation), nothing scrolls sideways
 * at 360 px, one lookup is done with the keyboard only, and `/` and `/murojaat` are
 * photographed at 360 px in all four languages (.tmp/screenshots/public-*.png).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { LOCALES } from '../../src/shared/locales.ts';
import { browserTestsEnabled, launchBrowser, startPortal } from '../support/browser.ts';
import { signIn } from '../support/app.ts';
import { fillForm } from '../support/fill-form.ts';
import { appealInput, caseInput, noticeInput, REFERENCE_PATTERN } from '../support/public-samples.ts';
import { PNG } from '../support/multipart.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const appealSchema = registry.entities.get('appeal')!.schema;

describe.skipIf(!browserTestsEnabled())('public services in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    const { token } = await signIn(portal.app);
    const create = async (url: string, payload: unknown) => {
      const res = await portal.app.inject({
        method: 'POST',
        url,
        payload: payload as never,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await create('/api/compliance-case/create', caseInput(0));
    await create('/api/compliance-case/create', caseInput(1, { hearingAt: '2026-11-24T11:30:00.000Z' }));
    await create('/api/court-notice/create', noticeInput({ kind: 'DECISION', recipientPinfl: '31205891234567' }));
    await create('/api/court-notice/create', noticeInput({ kind: 'SUMMONS', recipientPinfl: '31205891234567' }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  const open = async (width: number, locale = 'en'): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width, height: 860 }, locale: 'en-US' });
    await context.addInitScript((l) => localStorage.setItem('portal.locale', JSON.stringify(l)), locale);
    return { context, page: await context.newPage() };
  };
  const visit = async (page: Page, route: string, screen: string) => {
    await page.goto(`${portal.url}${route}`);
    await page.locator(`[data-screen="${screen}"]`).waitFor();
    // A prerendered page shows before its scripts run; its controls work once the app has taken it over.
    await page.locator('#root:not([data-prerendered])').waitFor();
    await page.locator('main[data-region="main"]:not([inert])').waitFor();
  };
  /** axe-core in the page: serious and critical violations (rule id → nodes). */
  // Fluent's focus management (tabster) puts aria-hidden focus sentinels (<i data-tabster-dummy>)
  // at the edges of tab lists and dialogs on purpose: they hand focus on and are never read;
  // axe cannot know that, so they are left out. A closing dialog's aria-hidden goes first.
  const axe = async (page: Page): Promise<string[]> => {
    await page.locator('#root:not([aria-hidden])').waitFor();
    // Colours are judged at rest: no button mid-transition, none locked right after a click.
    await page.waitForFunction(
      () => document.getAnimations().length === 0 && !document.querySelector('button[disabled][data-action="search"]'),
    );
    // Evaluated by the driver: the page's Content-Security-Policy refuses an inline <script> it has no hash for.
    await page.evaluate(AXE);
    const result = await page.evaluate(async () =>
      (
        window as unknown as {
          axe: {
            run(
              ctx: unknown,
            ): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
          };
        }
      ).axe.run({ exclude: [['[data-tabster-dummy]']] }),
    );
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      );
  };
  const noSidewaysScroll = async (page: Page) => {
    const { scroll, width } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      width: window.innerWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(width + 1);
  };
  const fieldInput = (page: Page, pointer: string) => page.locator(`[data-field="${pointer}"] input`).first();
  const dialogText = async (page: Page) => {
    const dialog = page.locator('[data-dialog="lookup-result"]');
    await dialog.waitFor();
    const text = await dialog.innerText();
    await dialog.locator('[data-action="close"]').click();
    await dialog.waitFor({ state: 'detached' });
    return text;
  };

  for (const width of [1280, 360]) {
    describe(`at ${width} px`, () => {
      let context: BrowserContext;
      let page: Page;
      beforeAll(async () => ({ context, page } = await open(width)));
      afterAll(async () => context?.close());

      it('the main page: a card per service, leadership, contacts, reception hours, language switch', async () => {
        await visit(page, '/', 'home');
        expect(await page.locator('[data-card]').count()).toBeGreaterThanOrEqual(6);
        expect(await page.locator('[data-section="reception"]').innerText()).toContain('Monday to Friday, 9:00–11:00');
        await page.locator('[data-section="leadership"]').waitFor();
        await page.locator('[data-section="contacts"]').waitFor();
        await page.locator('[data-card="/murojaat"]').click();
        await page.locator('[data-screen="murojaat"]').waitFor();
        await visit(page, '/', 'home');
        await page.locator('[data-action="language"]').selectOption('ru');
        await page.getByText('С понедельника по пятницу, с 9:00 до 11:00.').waitFor();
        await page.locator('[data-action="language"]').selectOption('en');
        await noSidewaysScroll(page);
        expect(await axe(page)).toEqual([]);
      });

      let reference = '';
      const phone = width === 360 ? '+99893-360-36-36' : '+99893-128-12-80';
      it('/murojaat: refuses an empty appeal on its fields, then sends one and shows its reference number', async () => {
        await visit(page, '/murojaat', 'murojaat');
        // A legal entity's tax ID and name are asked only of a legal-entity applicant.
        await page.locator('[data-field="/stir"]').waitFor({ state: 'hidden' });
        await page.locator('[data-field="/applicantType"] input[value="LEGAL"]').check();
        await page.locator('[data-field="/stir"]').waitFor({ state: 'visible' });
        await page.locator('[data-field="/applicantType"] input[value="INDIVIDUAL"]').check();
        await page.locator('[data-field="/organizationName"]').waitFor({ state: 'hidden' });
        await page.locator('[data-action="save"]').click();
        await page.locator('[data-field="/shortDescription"]').getByText('Mandatory field').waitFor();
        expect(await axe(page)).toEqual([]);
        await fillForm(page, appealSchema, appealInput(width, { phone, files: undefined }));
        await page
          .locator('[data-field="/files"] input[type=file]')
          .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
        await page.locator('[data-field="/files"] [data-file]').waitFor();
        await noSidewaysScroll(page);
        await page.locator('[data-action="save"]').click();
        await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
        const shown = page.locator('[data-reference-number]');
        await shown.waitFor();
        reference = await shown.innerText();
        expect(reference).toMatch(REFERENCE_PATTERN);
        // Stored with its attachment, linked to it.
        const { rows } = await portal.app.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM public_submission s JOIN file_entity f ON f.kind = 'appeal' AND f.record_id = s.record_id WHERE s.reference = $1 AND f.name = 'receipt.png'`,
          [reference],
        );
        expect(rows[0]!.n).toBe(1);
      });

      it('/online-watching: a bad phone is refused on the field; the sent appeal is found with its reference number', async () => {
        await visit(page, '/online-watching', 'online-watching');
        // The first tab is the reference number's (citizen-journey.e2e.test.ts); this is the phone's.
        await page.locator('[data-tab="phone"]').click();
        await fieldInput(page, '/phone').fill('123');
        await page.locator('[data-action="search"]').click();
        await page.locator('[data-field="/phone"]').getByText('+998 90-123-45-67').waitFor();
        await fieldInput(page, '/phone').fill(phone);
        await page.locator('[data-action="search"]').click();
        await page.locator('[data-result-field="/referenceNumber"]').getByText(reference).waitFor();
        expect(await page.locator('[data-result-field="/fullName"]').innerText()).toMatch(/\*\*\*/);
        await page.locator('[data-tab="pinfl"]').click();
        await fieldInput(page, '/pinfl').fill('31205890000000');
        await page.locator('[data-action="search"]').click();
        await page.getByText('No appeals were found for these details').waitFor();
        await noSidewaysScroll(page);
        expect(await axe(page)).toEqual([]);
      });

      it('/online-kuzatuv: asks for a correct case number, then shows the case — by keyboard only', async () => {
        await visit(page, '/online-kuzatuv', 'online-kuzatuv');
        const input = fieldInput(page, '/caseNumber');
        for (let i = 0; i < 40 && !(await input.evaluate((el) => el === document.activeElement)); i++)
          await page.keyboard.press('Tab');
        expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
        await page.keyboard.type('1405100');
        await page.keyboard.press('Enter');
        await page.locator('[data-field="/caseNumber"]').getByText('Enter the case number correctly').waitFor();
        await input.fill('');
        await page.keyboard.type('14-05/100');
        await page.keyboard.press('Enter');
        await page.locator('[data-result-field="/subject"]').getByText('Savdo Market 0').waitFor();
        expect(await page.locator('[data-result-field="/decisionDate"]').innerText()).toContain('20.10.2026');
        await noSidewaysScroll(page);
        expect(await axe(page)).toEqual([]);
      });

      it('/court-online: a modal tells whether a decision was sent electronically', async () => {
        await visit(page, '/court-online', 'court-online');
        await fieldInput(page, '/pinfl').fill('31205891234567');
        await page.locator('[data-action="search"]').click();
        expect(await dialogText(page)).toContain('register and use your personal cabinet');
        await page.locator('[data-tab="stir"]').click();
        await fieldInput(page, '/stir').fill('309999999');
        await page.locator('[data-action="search"]').click();
        expect(await dialogText(page)).toContain('No decision or instruction was sent to you electronically');
        await noSidewaysScroll(page);
        expect(await axe(page)).toEqual([]);
      });

      it('/sud-xabarnomasi: counters, and the check counts', async () => {
        await visit(page, '/sud-xabarnomasi', 'sud-xabarnomasi');
        const checked = page.locator('[data-stat="checked"] dd');
        // The prerendered page carries the build's counters until the server's arrive.
        await page.locator('[data-region="stats"][aria-busy="false"]').waitFor();
        await expect.poll(async () => checked.innerText()).toMatch(/^\d+$/);
        const before = Number(await checked.innerText());
        await fieldInput(page, '/pinfl').fill('31205891234567');
        await page.locator('[data-action="search"]').click();
        expect(await dialogText(page)).toContain('A summons was sent to you electronically');
        await expect.poll(async () => Number(await checked.innerText())).toBe(before + 1);
        await page.locator('[data-stat="checkedToday"]').waitFor();
        await page.locator('[data-stat="downloadedToday"]').waitFor();
        await noSidewaysScroll(page);
        expect(await axe(page)).toEqual([]);
      });

      it('/court-table: dates required; an empty day opens the modal; a region tab narrows the table', async () => {
        await visit(page, '/court-table', 'court-table');
        // Sixteen region tabs; on a phone they are a drop-down.
        await page.locator('[data-tab="14"]').waitFor({ state: 'attached' });
        expect(await page.locator('[data-tab]').count()).toBe(16);
        const chooseRegion = async (id: string) =>
          width === 360
            ? page.locator('select[data-region="tabs"]').selectOption(id)
            : page.locator(`[data-tab="${id}"]`).click();
        await page.locator('[data-action="search"]').click();
        await page.locator('[data-field="/from"]').getByText('Mandatory field').waitFor();
        await fieldInput(page, '/from').fill('25.11.2026');
        await fieldInput(page, '/to').fill('30.11.2026');
        await page.locator('[data-action="search"]').click();
        expect(await dialogText(page)).toContain('No cases are assigned for the chosen date');
        await fieldInput(page, '/from').fill('24.11.2026');
        await fieldInput(page, '/to').fill('24.11.2026');
        await page.locator('[data-action="search"]').click();
        await page.locator('[data-row="1"]').waitFor();
        expect(await page.locator('[data-row]').count()).toBe(2);
        await chooseRegion('2');
        await page.locator('[data-action="search"]').click();
        await page.locator('[data-row="0"] [data-result-field="/caseNumber"]').getByText('14-05/101').waitFor();
        expect(await page.locator('[data-row]').count()).toBe(1);
        await noSidewaysScroll(page);
        expect(await axe(page)).toEqual([]);
      });
    });
  }

  it('/murojaat: a draft saved without an account is resumed from its private link in another browser', async () => {
    const first = await open(360);
    await visit(first.page, '/murojaat', 'murojaat');
    await fieldInput(first.page, '/shortDescription').fill('Muddati o‘tgan sut');
    await first.page.locator('[data-action="save-draft"]').click();
    await expect.poll(() => new URL(first.page.url()).searchParams.get('draft')).toMatch(/^[0-9a-f-]{36}$/);
    const link = first.page.url();
    await first.context.close();
    const second = await open(1280);
    await second.page.goto(link);
    await second.page.locator('[data-screen="murojaat"]').waitFor();
    await expect.poll(() => fieldInput(second.page, '/shortDescription').inputValue()).toBe('Muddati o‘tgan sut');
    await second.context.close();
  });

  it('photographs / and /murojaat at 360 px in every language', async () => {
    for (const locale of LOCALES) {
      const { context, page } = await open(360, locale);
      await visit(page, '/', 'home');
      await page.screenshot({ path: path.join(SHOTS, `public-home-${locale}.png`), fullPage: true });
      await noSidewaysScroll(page);
      await visit(page, '/murojaat', 'murojaat');
      await page.screenshot({ path: path.join(SHOTS, `public-murojaat-${locale}.png`), fullPage: true });
      await noSidewaysScroll(page);
      await context.close();
    }
  });
});
