/**
 * The public chat bot in Chromium (issue #20 item 6), one portal and one browser: on the home
 * page (ru, 1280 px) the launcher opens by keyboard, a question gets the FAQ entry whose link
 * leads to the FAQ paragraph; Escape closes the dialog and gives the focus back; nonsense gets
 * the hand-over to the appeal form, whose text is the question. At 360 px in uzCyrillic the
 * panel fills the phone without sideways scrolling and a Latin question finds the entry.
 * Staff see the unanswered question and mark it handled. Screenshots
 * .tmp/screenshots/chatbot-*.png.
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
  signInThroughForm,
  startPortal,
  waitForScreen,
} from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const NONSENSE = 'фывапролд джэ';

describe.skipIf(!browserTestsEnabled())('the chat bot in Chromium', () => {
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

  /** Opens the home page and the bot by keyboard: the launcher takes the focus, Enter opens it. */
  const openBot = async (page: Page) => {
    await page.goto(`${portal.url}/`);
    await waitForScreen(page, '[data-screen="home"]');
    const launcher = page.locator('[data-action="chatbot-open"]');
    await launcher.focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-region="chatbot"]').waitFor();
  };
  /**
   * Nothing of the panel reaches under the page's scrollbar or past the screen's edge, and the
   * page does not scroll sideways.
   */
  const expectInsideViewport = async (page: Page) => {
    const overflow = await page.evaluate(() => {
      const right = document.documentElement.clientWidth;
      const parts = document.querySelectorAll(
        '[data-region="chatbot"], [data-region="chatbot"] [data-answer], [data-region="chatbot"] button, [data-region="chatbot"] input',
      );
      return [...parts]
        .filter((el) => el.getBoundingClientRect().right > right + 0.5)
        .map((el) => el.outerHTML.slice(0, 80));
    });
    expect(overflow).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  };
  /** Types a question and sends it with Enter; waits for its reply. */
  const ask = async (page: Page, question: string) => {
    const turns = await page.locator('[data-turn]').count();
    await page.locator('[data-field="chatbot-question"]').focus();
    await page.keyboard.type(question);
    await page.keyboard.press('Enter');
    const turn = page.locator(`[data-turn="${turns}"]`);
    await turn.locator('[data-answer], [data-state="no-answer"], [data-state="failed"]').first().waitFor();
    return turn;
  };

  it('answers by keyboard at 1280 px (ru), follows the link, and hands nonsense over to the appeal form', async () => {
    const page = await (await newPortalContext(browser, 'ru', 1280)).newPage();
    await openBot(page);
    // The dialog keeps the focus inside it; the log is a live region.
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-region="chatbot"]')))).toBe(true);
    await expect(page.locator('[data-region="chatbot-log"]').getAttribute('aria-live')).resolves.toBe('polite');
    const answered = await ask(page, 'Можно ли вернуть лекарство в аптеку?');
    await expect(answered.locator('[data-answer]').first().getAttribute('data-answer')).resolves.toBe('faq:q3');
    const nonsense = await ask(page, NONSENSE);
    await nonsense.locator('[data-state="no-answer"]').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'chatbot-ru-1280.png') });
    // The same conversation on a phone: the panel is the whole screen, the cards inside it.
    await page.setViewportSize({ width: 360, height: 800 });
    await expectInsideViewport(page);
    await page.screenshot({ path: path.join(SHOTS, 'chatbot-ru-360.png') });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Escape closes the dialog and the focus returns to the launcher.
    await page.keyboard.press('Escape');
    await page.locator('[data-region="chatbot"]').waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-action')))
      .toBe('chatbot-open');

    // The answer's link leads to the FAQ paragraph.
    await page.keyboard.press('Enter');
    await ask(page, 'Можно ли вернуть лекарство в аптеку?');
    await page.locator('[data-answer="faq:q3"] [data-action="chatbot-answer-link"]').last().focus();
    await page.keyboard.press('Enter');
    await waitForScreen(page, '[data-screen="faq"]');
    expect(new URL(page.url()).hash).toBe('#faq-q3');
    await expect(page.locator('#faq-q3').innerText()).resolves.toMatch(/^Можно ли вернуть лекарство/);

    // Nonsense: the hand-over opens the appeal form with the question as its text.
    await page.locator('[data-action="chatbot-open"]').focus();
    await page.keyboard.press('Enter');
    await (await ask(page, NONSENSE)).locator('[data-action="chatbot-send-appeal"]').focus();
    await page.keyboard.press('Enter');
    await waitForScreen(page, '[data-screen="murojaat"]');
    await expect.poll(() => page.locator('[data-field="/content"] textarea').inputValue()).toBe(NONSENSE);
    // A page with a form to send has no launcher: nothing floats over its send button.
    expect(await page.locator('[data-action="chatbot-open"]').count()).toBe(0);
    await page.context().close();
  });

  it('works at 360 px in uzCyrillic: the panel fills the phone, a Latin question finds the entry', async () => {
    const page = await (await newPortalContext(browser, 'uzCyrillic', 360)).newPage();
    await openBot(page);
    const latin = await ask(page, "Gaz uchun oldindan to'lov qancha");
    await expect(latin.locator('[data-answer]').first().getAttribute('data-answer')).resolves.toBe('faq:q4');
    await expect(latin.locator('[data-answer]').first().innerText()).resolves.toContain('Табиий газ');
    const cyrillic = await ask(page, 'Суд мажлиси қачон бўлади');
    await expect(cyrillic.locator('[data-answer]').first().getAttribute('data-answer')).resolves.toBe(
      'service:/court-table',
    );
    await expectInsideViewport(page);
    await page.screenshot({ path: path.join(SHOTS, 'chatbot-uzCyrillic-360.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, 'chatbot-uzCyrillic-1280.png') });
    await page.setViewportSize({ width: 360, height: 900 });
    await page.keyboard.press('Escape');
    // The launcher itself at 360 px, over the home page.
    await page.locator('[data-action="chatbot-open"]').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'chatbot-launcher-uzCyrillic-360.png') });
    await page.context().close();
  });

  it('shows staff the unanswered questions, most asked first, and marks one handled', async () => {
    const page = await (await newPortalContext(browser, 'ru', 1280)).newPage();
    await signInThroughForm(page, `${portal.url}/admin/chatbot`, 'admin', TEST_ADMIN_PASSWORD);
    await waitForScreen(page, '[data-screen="chatbot"]');
    const row = page.locator(`[data-question="${NONSENSE}"]`);
    await expect(row.locator('[data-state="count"]').innerText()).resolves.toContain('2');
    // The launcher is for the public pages only.
    expect(await page.locator('[data-action="chatbot-open"]').count()).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, 'chatbot-staff-ru-1280.png') });
    await row.locator('[data-action="mark-handled"]').click();
    await row.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
