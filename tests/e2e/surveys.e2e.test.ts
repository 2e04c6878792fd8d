/**
 * Tests and surveys in Debian's Chromium at 360 px (and the list at 1280 px): from the home
 * page and /faq to /surveys, taking the consumer-rights test (a required question left out is
 * refused on its field, then the score and the right answers), answering the portal survey
 * (thanks and the results table), one response per browser (a reload shows the outcome, not
 * the form), no sideways scroll, no serious or critical axe-core violation. Screenshots of
 * each step go to .tmp/screenshots/surveys-*.png.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';
import { browserTestsEnabled } from '../support/browser.ts';
import { axeProblems, noOverflow, SHOTS, usePublicPortal } from '../support/public-browser.ts';

const seed = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas/survey/seed.json'), 'utf8')) as {
    records: Array<{ title: string; kind: string; questions: Array<{ options?: Array<{ correct?: boolean }> }> }>;
  }
).records;

describe.skipIf(!browserTestsEnabled())('tests and surveys in Chromium', () => {
  const { open, portal: running } = usePublicPortal();

  for (const width of [1280, 360]) {
    it(`/surveys at ${width} px: reached from home and /faq, lists the open tests and surveys`, async () => {
      const page = await open('/faq', width);
      await page.locator('[data-card="/surveys"]').click();
      await page.waitForSelector('[data-screen="surveys"] [data-card]');
      expect(await page.locator('[data-card]').count()).toBe(seed.length);
      expect(await page.locator('[data-scored="true"]').count()).toBe(seed.filter((r) => r.kind === 'TEST').length);
      await page.goto(`${running().url}/`);
      await page.waitForSelector('[data-card="/surveys"]');
      await noOverflow(page);
      await page.goto(`${running().url}/surveys`);
      await page.waitForSelector('[data-card]');
      await noOverflow(page);
      expect(await axeProblems(page)).toEqual([]);
      if (width === 360) await page.screenshot({ path: path.join(SHOTS, 'surveys-list-360.png'), fullPage: true });
      await page.context().close();
    });
  }

  it('takes the consumer-rights test at 360 px: a missing answer is refused on its field, then the score and the right answers', async () => {
    const page = await open('/surveys', 360, 'uzCyrillic');
    const quiz = seed.findIndex((r) => r.kind === 'TEST');
    await page.locator('[data-card]', { hasText: seed[quiz]!.title }).click();
    await page.waitForSelector('[data-screen="survey-take"] [data-action="submit"]');
    const html = await page.content();
    expect(html).not.toContain('correct');
    // Answer every question right except the first, which is left out at first.
    const questions = seed[quiz]!.questions;
    for (let i = 1; i < questions.length; i++) {
      const right = questions[i]!.options!.flatMap((o, j) => (o.correct ? [j] : []));
      const field = page.locator(`[data-field="/q${i + 1}"]`);
      if (right.length > 1) for (const j of right) await field.locator(`input[data-choice="${j}"]`).check();
      else await field.getByRole('radio').nth(right[0]!).check();
    }
    await page.locator('[data-action="submit"]').click();
    await page
      .locator('[data-field="/q1"] [role="alert"], [data-field="/q1"] .fui-Field__validationMessage')
      .first()
      .waitFor();
    expect(await page.locator('[data-region="outcome"]').count()).toBe(0);
    await noOverflow(page);
    expect(await axeProblems(page)).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0)); // the sticky header would cover the field in a full-page shot
    await page.screenshot({ path: path.join(SHOTS, 'surveys-test-form-360.png'), fullPage: true });
    // Now a wrong answer to the first question: 4 of 5 right, passed at 60%.
    const wrong = questions[0]!.options!.findIndex((o) => !o.correct);
    await page.locator('[data-field="/q1"]').getByRole('radio').nth(wrong).check();
    await page.locator('[data-action="submit"]').click();
    const score = page.locator('[data-score]');
    await score.waitFor();
    expect(await score.getAttribute('data-score')).toBe(String(questions.length - 1));
    expect(await score.getAttribute('data-passed')).toBe('true');
    expect(await page.locator('[data-question="q1"]').getAttribute('data-correct')).toBe('false');
    expect(await page.locator('[data-question="q1"] [data-right-answer]').count()).toBe(1);
    expect(await page.locator('[data-correct="true"]').count()).toBe(questions.length - 1);
    await noOverflow(page);
    expect(await axeProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'surveys-test-score-360.png'), fullPage: true });
    // One response per browser: coming back shows the outcome, not a new form.
    await page.reload();
    await page.locator('[data-score]').waitFor();
    expect(await page.locator('[data-action="submit"]').count()).toBe(0);
    await page.context().close();
  });

  it('answers the portal survey at 360 px by keyboard: thanks, then the results table', async () => {
    const page = await open('/surveys', 360, 'ru');
    const survey = seed.findIndex((r) => r.kind === 'SURVEY');
    await page.locator('[data-card]', { hasText: seed[survey]!.title }).click();
    await page.waitForSelector('[data-field="/q1"]');
    // Rating 4 by keyboard: focus the first star value and move right three times.
    await page.locator('[data-field="/q1"]').getByRole('radio').first().focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.locator('[data-field="/q2"] input[data-choice="0"]').check();
    await page.locator('[data-field="/q2"] input[data-choice="2"]').check();
    await page.locator('[data-field="/q3"]').getByRole('radio').first().check();
    await page.locator('[data-field="/q4"] textarea').fill('Больше открытых данных');
    await page.locator('[data-action="submit"]').click();
    await page.locator('[data-state="answered"]').waitFor();
    await page.locator('[data-region="results"] [data-total]').waitFor();
    expect(await page.locator('[data-region="results"] [data-total]').getAttribute('data-total')).toBe('1');
    expect(await page.locator('[data-question="q1"] [data-option="3"] [data-count]').getAttribute('data-count')).toBe(
      '1',
    );
    expect(await page.locator('[data-question="q2"] [data-option="2"] [data-count]').getAttribute('data-count')).toBe(
      '1',
    );
    expect(await page.locator('[data-question="q2"] [data-option="1"] [data-count]').getAttribute('data-count')).toBe(
      '0',
    );
    await noOverflow(page);
    expect(await axeProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'surveys-survey-results-360.png'), fullPage: true });
    await page.context().close();
  });
});
