/**
 * The admin playground in Chromium: the admin opens it from the menu's route, the example form
 * is drawn by the engine, "Check" says the example passes, a misspelt format pasted into the
 * schema is named with its file and pointer, and the form validates what is typed into it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import {
  browserTestsEnabled,
  launchBrowser,
  newPortalContext,
  startPortal,
  waitForScreen,
  signInThroughForm,
} from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { axeProblems } from '../support/public-browser.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const ROUTE = '/admin/playground';

describe.skipIf(!browserTestsEnabled())('the admin playground in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let page: Page;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await launchBrowser();
    page = await (await newPortalContext(browser)).newPage();
    await signInThroughForm(page, `${portal.url}${ROUTE}`, 'admin', TEST_ADMIN_PASSWORD);
    await waitForScreen(page, '[data-screen="playground"]');
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('draws the example form and says the check passes it', async () => {
    await page.locator('[data-region="form"] [data-field="/name"]').waitFor();
    await page.locator('[data-action="check"]').click();
    await page.locator('[data-region="problems"]').waitFor();
    expect(await page.locator('[data-region="problems"]').getAttribute('data-count')).toBe('0');
    expect(await axeProblems(page, ['[data-screen="playground"]'])).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'playground-1280.png'), fullPage: true });
  });

  it('names a pasted mistake with its file and pointer, and validates what is typed into the form', async () => {
    const box = page.locator('[data-field="/schema"] textarea');
    await box.fill((await box.inputValue()).replace('"format": "date"', '"format": "dat"'));
    await page.locator('[data-action="check"]').click();
    const problem = page.locator('[data-problem="schema.json#/properties/date/format"]');
    await problem.waitFor();
    expect(await problem.innerText()).toContain('did you mean "date"');
    expect(await axeProblems(page, ['[data-screen="playground"]'])).toEqual([]);
    // Put it right; the form is drawn again from the text and validates on submit.
    await box.fill((await box.inputValue()).replace('"format": "dat"', '"format": "date"'));
    await page.locator('[data-region="form"] [data-field="/name"] input').fill('Sample');
    await page.locator('[data-action="validate"]').click();
    await page
      .locator('[data-region="form"] [role="alert"], [data-region="form"] .fui-Field__validationMessage')
      .first()
      .waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'playground-validated-1280.png'), fullPage: true });
  });

  it('fits a phone: problems wrap, nothing scrolls sideways', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    // Drawn afresh at the phone's width (the menu starts closed there).
    await page.reload();
    await waitForScreen(page, '[data-screen="playground"]');
    const box = page.locator('[data-field="/schema"] textarea');
    await box.fill((await box.inputValue()).replace('"format": "date"', '"format": "dat"'));
    await page.locator('[data-action="check"]').click();
    await page.locator('[data-problem="schema.json#/properties/date/format"]').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'playground-360.png'), fullPage: true });
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(sideways).toBe(false);
  });
});
