/**
 * What the public-page browser tests share: a portal with the sample rows and one Chromium for
 * a describe block, a page opened at a width and in a language, axe-core's serious and
 * critical violations, and the check that nothing sticks out sideways.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';
import { launchBrowser, startPortal } from './browser.ts';

/** Where the public tests write their screenshots. */
export const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Serious and critical axe violations of the page, as "rule: selector" lines. Fluent's focus
 * sentinels (Tabster's aria-hidden dummy inputs that hand focus on) are by design and left out;
 * `include` narrows the check to some regions.
 */
export async function axeProblems(page: Page, include?: string[]): Promise<string[]> {
  // Colours are judged as they end up, not halfway through a button's hover or focus transition
  // (a loaded machine can catch Fluent's 100 ms fades mid-way and see too little contrast).
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  // Evaluated by the driver: the page's Content-Security-Policy refuses an inline <script> it has no hash for.
  await page.evaluate(AXE);
  return page.evaluate(async (regions) => {
    const context = { ...(regions ? { include: regions.map((r) => [r]) } : {}), exclude: [['[data-tabster-dummy]']] };
    const result = await (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe.run(context, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      );
  }, include);
}

/** Nothing sticks out sideways (the elements that do are named, to see why). */
export const noOverflow = async (page: Page): Promise<void> =>
  expect(
    await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter(
          (e) =>
            e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 &&
            getComputedStyle(e).position !== 'fixed',
        )
        .filter((e) => !e.closest('[data-scroll]'))
        .map((e) => `${e.tagName}.${String(e.className).slice(0, 40)}`)
        .slice(0, 5),
    ),
  ).toEqual([]);

/**
 * Starts a portal with the sample rows (unless `seedSamples: false`: a quicker start, for tests
 * that make their own few rows) and a browser for the enclosing describe block, and returns how
 * to open a page there: `open(route, width, locale)`.
 */
export function usePublicPortal(options: { seedSamples?: boolean } = {}): {
  open(route: string, width: number, locale?: string): Promise<Page>;
  portal(): Awaited<ReturnType<typeof startPortal>>;
} {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal({ seedSamples: options.seedSamples ?? true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });
  return {
    portal: () => portal,
    async open(route, width, locale = 'en') {
      const context = await browser.newContext({ viewport: { width, height: 800 }, locale: 'en-US' });
      await context.addInitScript((l) => localStorage.setItem('portal.locale', JSON.stringify(l)), locale);
      const page = await context.newPage();
      await page.goto(`${portal.url}${route}`);
      // A prerendered page shows before its scripts run; its controls work once the app has taken it over.
      await page.locator('#root:not([data-prerendered])').waitFor();
      await page.locator('main[data-region="main"]:not([inert])').waitFor();
      return page;
    },
  };
}
