/**
 * Every public route (src/definitions/public-routes.ts) as a first visit on a phone meets it
 * — the prerendered page, adopted by the app, its data loaded from a portal with the sample
 * rows — in Debian's Chromium: once the page has settled, no element is both hidden from
 * assistive technology (`aria-hidden`, or inside such an element) and in the Tab order (Fluent's
 * focus sentinels among them), and the layout shifts the page made (PerformanceObserver's
 * `layout-shift` entries not caused by input, summed) stay below 0.01, a tenth of Lighthouse's
 * "good": the answers of the API land late, as on a slow mobile link, so that a table or chart
 * that kept too little room for its answer moves what is below it. Both are properties of the
 * layout, not timings: the check waits for the page to settle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { browserTestsEnabled, launchBrowser, startPortal } from '../support/browser.ts';
import { definedPublicRoutes } from '../support/public-routes.ts';

/** How late every API answer lands (a slow mobile link). */
const API_DELAY_MS = 600;

/** Lighthouse's phone (Moto G Power): its viewport and pixel ratio. */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

const routes = await definedPublicRoutes(REPO_ROOT);

describe.skipIf(!browserTestsEnabled())('public routes at rest on a phone', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  beforeAll(async () => {
    portal = await startPortal({ seedSamples: true });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('covers every public route', () => {
    expect(routes.length).toBeGreaterThan(10);
    expect(routes).toContain('/');
  });

  it.each(routes)(
    '%s: no focusable element hidden from assistive technology, layout shift below 0.01',
    async (route) => {
      const context = await browser.newContext(PHONE);
      try {
        const page = await context.newPage();
        // Every shift from the page's start that no input caused, summed as it comes.
        await page.addInitScript(() => {
          const w = window as unknown as { layoutShift: number };
          w.layoutShift = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>)
              if (!e.hadRecentInput) w.layoutShift += e.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        // A phone's slow link: every answer of the API lands late, after the page has drawn its
        // loading state, so that whatever room the page kept for the answer is put to the test.
        await page.route('**/api/**', async (request) => {
          await new Promise((resolve) => setTimeout(resolve, API_DELAY_MS));
          await request.continue().catch(() => undefined);
        });
        await page.goto(`${portal.url}${route}`);
        // Settled: the app owns the page, nothing is loading, and the network has been quiet.
        await page.locator('#root:not([data-prerendered])').waitFor();
        await page.locator('main[data-region="main"]:not([inert])').waitFor();
        await page.waitForLoadState('networkidle');
        await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], [role="progressbar"]'));
        await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(resolve))));
        const found = await page.evaluate(() => {
          const hiddenFocusable = [...document.querySelectorAll<HTMLElement>('body *')]
            .filter(
              (e) =>
                e.tabIndex >= 0 &&
                !(e as HTMLButtonElement).disabled &&
                e.closest('[aria-hidden="true"]') &&
                !e.closest('[inert]') &&
                e.getClientRects().length > 0,
            )
            .map((e) => e.outerHTML.slice(0, 120));
          const layoutShift = (window as unknown as { layoutShift: number }).layoutShift;
          return { hiddenFocusable, layoutShift };
        });
        expect(found.hiddenFocusable).toEqual([]);
        expect(found.layoutShift).toBeLessThan(0.01);
      } finally {
        await context.close();
      }
    },
  );
});
