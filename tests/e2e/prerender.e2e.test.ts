/**
 * The prerendered public pages (scripts/prerender.ts) in Debian's Chromium: what a visitor
 * sees before any JavaScript runs (a form too, inert), that the app then takes the page over
 * (hydration without errors on every prerendered route, the same DOM, typing, the language
 * switch and the phone menu working), that the language cookie picks
 * the next page's language, a language chosen before the app ran is applied, and a
 * signed-in browser never shows the visitor's page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { readLocales } from '../../src/definitions/locale-files.ts';
import type { Locale } from '../../src/shared/locales.ts';
import { browserTestsEnabled, launchBrowser, startPortal } from '../support/browser.ts';

const messages = (locale: Locale) =>
  readLocales(REPO_ROOT).locales[locale] as {
    app: { menu: string };
    page: { home: { main: { title: string } } };
    screen: { murojaat: { title: string } };
  };

describe.skipIf(!browserTestsEnabled())('prerendered public pages in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  beforeAll(async () => {
    portal = await startPortal();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  const context = async (
    width: number,
    options: { javaScript?: boolean; locale?: string } = {},
  ): Promise<BrowserContext> => {
    const ctx = await browser.newContext({
      viewport: { width, height: 800 },
      javaScriptEnabled: options.javaScript ?? true,
    });
    if (options.locale) await ctx.addCookies([{ name: 'portal.locale', value: options.locale, url: portal.url }]);
    return ctx;
  };
  const heading = (page: Page) => page.locator('main h1').first().innerText();
  /** The console errors and uncaught exceptions of a page (a failed hydration is reported there), as they come. */
  const errorsOf = (page: Page, label = (): string => ''): string[] => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${label()}${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${label()}${e.message}`));
    return errors;
  };

  it("shows the page, its header and (on a wide screen) its menu without JavaScript, in the cookie's language", async () => {
    const wide = await context(1280, { javaScript: false });
    const page = await wide.newPage();
    await page.goto(`${portal.url}/`);
    expect(await heading(page)).toBe(messages('uzCyrillic').page.home.main.title);
    expect(await page.locator('header [data-action="menu"]').getAttribute('aria-label')).toBe(
      messages('uzCyrillic').app.menu,
    );
    expect(await page.locator('[data-region="menu"]').isVisible()).toBe(true);
    expect(await page.locator('[data-card]').count()).toBeGreaterThan(3);
    await wide.close();

    const phone = await context(360, { javaScript: false, locale: 'ru' });
    const mobile = await phone.newPage();
    await mobile.goto(`${portal.url}/murojaat`);
    // The form itself, drawn from the data the build asked the server for (a reference list's
    // options among it), but inert: nothing typed before the app runs could be kept.
    expect(await heading(mobile)).toBe(messages('ru').screen.murojaat.title);
    expect(await mobile.title()).toContain(messages('ru').screen.murojaat.title);
    expect(await mobile.locator('html').getAttribute('lang')).toBe('ru');
    expect(await mobile.locator('[data-field="/content"] textarea').isVisible()).toBe(true);
    const regions = JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas/_reference/region.json'), 'utf8')) as {
      items: Array<{ nameRu: string }>;
    };
    expect(await mobile.locator('[data-field="/regionId"] option').allInnerTexts()).toContain(regions.items[0]!.nameRu);
    expect(await mobile.locator('main[data-region="main"]').getAttribute('inert')).toBe('');
    // A phone starts with the menu drawer closed.
    expect(await mobile.locator('[data-region="menu"]').isVisible()).toBe(false);
    await phone.close();
  });

  it("shows without JavaScript a dashboard's panels loading where the build had no rows for them, never 'no data'", async () => {
    const phone = await context(412, { javaScript: false });
    // What the build's server does have is in the page: the open-data catalogue (from the definitions).
    const catalogue = await phone.newPage();
    await catalogue.goto(`${portal.url}/open-data`);
    expect(await catalogue.locator('[data-panel="datasets"] [data-row]').count()).toBeGreaterThan(10);
    await catalogue.close();
    // The price dashboards' figures are not in an empty build's database.
    for (const route of ['/statistics-prices', '/fair-price-stations']) {
      const page = await phone.newPage();
      await page.goto(`${portal.url}${route}`);
      const panels = page.locator('[data-panel]');
      expect(await panels.count()).toBeGreaterThan(1);
      expect(await page.locator('[data-panel][aria-busy="true"]').count()).toBe(await panels.count());
      expect(await page.locator('[data-panel] [role="progressbar"]').count()).toBe(await panels.count());
      expect(await page.locator('[data-panel] [data-state]').count()).toBe(0);
      await page.close();
    }
    await phone.close();
  });

  it("is taken over by the app without hydration errors; the language switch sets the next page's language", async () => {
    const ctx = await context(1280);
    const page = await ctx.newPage();
    const errors = errorsOf(page);
    await page.goto(`${portal.url}/`);
    await page.waitForFunction(() => !document.getElementById('root')!.hasAttribute('data-prerendered'));
    await page.selectOption('[data-action="language"]', 'en');
    await expect.poll(() => heading(page)).toBe(messages('en').page.home.main.title);
    expect((await ctx.cookies()).find((c) => c.name === 'portal.locale')?.value).toBe('en');
    const next = await page.request.get(`${portal.url}/murojaat`);
    expect(await next.text()).toContain('data-prerendered="en /murojaat"');
    await page.goto(`${portal.url}/murojaat`);
    await page.waitForSelector('form.rjsf');
    expect(await page.title()).toContain(messages('en').screen.murojaat.title);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('adopts a prerendered form on a slow phone: typing works once the app runs, the page was not drawn again, and a query string gets a fresh page', async () => {
    const ctx = await context(360);
    const page = await ctx.newPage();
    const errors = errorsOf(page);
    // A phone's CPU, as Lighthouse has it (4× slower): React adopts the page's boundary in slices
    // then, and an update elsewhere in the meantime (the progress bar's once) made it draw the
    // page again — without any error.
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    // The textarea as parsed, before any script ran.
    await page.addInitScript(() =>
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive')
          (window as unknown as { seen: Element | null }).seen = document.querySelector(
            '[data-field="/content"] textarea',
          );
      }),
    );
    await page.goto(`${portal.url}/murojaat`);
    await page.waitForFunction(() => !document.getElementById('root')!.hasAttribute('data-prerendered'));
    await expect.poll(() => page.locator('main[data-region="main"]').getAttribute('inert')).toBeNull();
    const same = await page.evaluate(() => {
      const seen = (window as unknown as { seen: Element | null }).seen;
      return seen !== null && seen === document.querySelector('[data-field="/content"] textarea');
    });
    // Together, so that a replaced element shows the hydration error that replaced it, if any.
    expect({ same, errors }).toEqual({ same: true, errors: [] });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.fill('[data-field="/content"] textarea', 'Typed after the app took over');
    expect(await page.inputValue('[data-field="/content"] textarea')).toBe('Typed after the app took over');
    // A query string may change the page (a draft's link): the app draws its own, without a hydration error.
    await page.goto(`${portal.url}/murojaat?utm_source=sms`);
    await page.waitForFunction(() => !document.getElementById('root')!.hasAttribute('data-prerendered'));
    await page.waitForSelector('[data-field="/content"] textarea');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  // One test per width: each visits every public route, which takes a minute or more on a loaded machine.
  it.each([1280, 360])(
    'every prerendered route is adopted without a hydration error at %ipx (360: a slow phone)',
    async (width) => {
      const routes = Object.keys(
        JSON.parse(readFileSync(path.join(REPO_ROOT, 'dist/web/prerendered/routes.json'), 'utf8')) as Record<
          string,
          string
        >,
      );
      expect(routes.length).toBeGreaterThan(10);
      const problems: string[] = [];
      {
        const ctx = await context(width);
        const page = await ctx.newPage();
        let route = '';
        const errors = errorsOf(page, () => `${width} ${route}: `);
        // The phone's CPU as Lighthouse has it (4× slower): React adopts the screen in slices then.
        if (width === 360) await (await ctx.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
        // The screen's element as parsed, before any script ran: adopted, it is still the one shown.
        await page.addInitScript(() =>
          document.addEventListener('readystatechange', () => {
            if (document.readyState === 'interactive')
              (window as unknown as { seen: Element | null }).seen =
                document.querySelector('main[data-region="main"] > *');
          }),
        );
        for (route of routes) {
          await page.goto(`${portal.url}${route}`);
          await page.waitForFunction(() => !document.getElementById('root')!.hasAttribute('data-prerendered'));
          // A form's screen is released once React owns it, which may be a moment after the shell.
          await expect.poll(() => page.locator('[inert]').count(), { message: `${width} ${route}` }).toBe(0);
          // The screen's own hydration runs after the shell's, in slices: done once the page is idle.
          await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(resolve))));
          const same = await page.evaluate(() => {
            const seen = (window as unknown as { seen: Element | null }).seen;
            return seen !== null && seen === document.querySelector('main[data-region="main"] > *');
          });
          if (!same) problems.push(`${width} ${route}: the screen was drawn again`);
        }
        problems.push(...errors);
        await ctx.close();
      }
      expect(problems).toEqual([]);
    },
    300_000,
  );

  it('applies a language chosen before the app took the page over', async () => {
    const ctx = await context(1280);
    const page = await ctx.newPage();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The entry script arrives only after the visitor has chosen.
    await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${portal.url}/`);
    await page.selectOption('[data-action="language"]', 'ru');
    release();
    await expect.poll(() => heading(page)).toBe(messages('ru').page.home.main.title);
    expect(await page.locator('html').getAttribute('lang')).toBe('ru');
    await ctx.close();
  });

  it("opens the phone menu once the app runs (the prerender's phone CSS is gone)", async () => {
    const ctx = await context(360);
    const page = await ctx.newPage();
    await page.goto(`${portal.url}/`);
    await page.waitForFunction(() => !document.getElementById('root')!.hasAttribute('data-prerendered'));
    expect(await page.locator('[data-region="menu"]').isVisible()).toBe(false);
    await page.click('[data-action="menu"]');
    await page.waitForSelector('[data-region="menu"] a[href="/murojaat"]', { state: 'visible' });
    await ctx.close();
  });

  it("shows a signed-in browser nothing of the visitor's page (the app draws its own)", async () => {
    for (const signedIn of [false, true]) {
      const ctx = await context(1280);
      if (signedIn) await ctx.addInitScript(() => localStorage.setItem('portal.accessToken', JSON.stringify('token')));
      const page = await ctx.newPage();
      // The app never starts here: what is left is what the HTML itself shows.
      await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
      await page.goto(`${portal.url}/`);
      expect(await page.locator('#root [data-region="header"]').count()).toBe(signedIn ? 0 : 1);
      await ctx.close();
    }
  });
});
