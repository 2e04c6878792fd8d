/**
 * The Content-Security-Policy in Debian's Chromium (docs/security.md "Security headers"): every public
 * route (screens whose permission is `public`, sample ids for parameters), the prerendered
 * pages taken over by the app, and the main staff screens signed in as admin — a list, a
 * record, forms, a wizard, the tree, the messenger on its live socket, a dashboard's charts,
 * the profile — load with the policy in force and without a single `securitypolicyviolation`
 * event or a console message about the policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import {
  browserTestsEnabled,
  launchBrowser,
  newPortalContext,
  startPortal,
  waitForScreen,
} from '../support/browser.ts';
import { signIn, TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { appealInput } from '../support/public-samples.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const screens = [...registry.screens.values()];
const publicScreens = screens.filter((s) => s.permission === 'public');

/** Console lines that mean the browser refused something by policy. */
const POLICY_MESSAGE = /Content Security Policy|Content-Security-Policy|Permissions-Policy|Refused to/i;

describe.skipIf(!browserTestsEnabled())('the Content-Security-Policy in Chromium: no violations', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  /** Sample ids for route parameters, per entity. */
  const ids: Record<string, string> = {};
  const violations: string[] = [];

  /** A context that reports every policy violation and policy console message of its pages into `violations`. */
  const watchedContext = async (): Promise<BrowserContext> => {
    const context = await newPortalContext(browser, 'en');
    // The server picks the prerendered page's language by cookie: the same as the app's, so the page is adopted.
    await context.addCookies([{ name: 'portal.locale', value: 'en', url: portal.url }]);
    await context.exposeBinding('reportPolicyViolation', ({ page }, text: string) =>
      violations.push(`${new URL(page.url()).pathname}: ${text}`),
    );
    await context.addInitScript(() => {
      document.addEventListener(
        'securitypolicyviolation',
        (e) => {
          (window as unknown as { reportPolicyViolation(text: string): void }).reportPolicyViolation(
            `${e.effectiveDirective} refused ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`,
          );
        },
        true,
      );
    });
    context.on('console', (m) => {
      if (POLICY_MESSAGE.test(m.text()))
        violations.push(`${new URL(m.page()?.url() ?? portal.url).pathname}: console ${m.type()}: ${m.text()}`);
    });
    return context;
  };

  /** The route with sample ids in place of its parameters. */
  const routeOf = (screen: (typeof screens)[number]): string =>
    screen.route.replace(/:id\b/, () => {
      const id = screen.entity ? ids[screen.entity] : undefined;
      if (!id) throw new Error(`no sample id for ${screen.id} (${screen.route})`);
      return id;
    });

  /**
   * Opens a route and waits until its screen is shown with its data: a prerendered page taken
   * over by the app, nothing loading, the network quiet, two frames drawn (charts, grids).
   */
  const visit = async (page: Page, route: string, screenId: string): Promise<void> => {
    const response = await page.goto(`${portal.url}${route}`);
    expect(response?.headers()['content-security-policy'], route).toMatch(/script-src 'self'/);
    try {
      await page.locator('#root:not([data-prerendered])').waitFor();
      // The screen itself, not its loading placeholder (which carries the same data-screen).
      await waitForScreen(page, `[data-screen="${screenId}"]:not([data-state])`);
      await page.locator('main[data-region="main"]:not([inert])').waitFor();
      await page.waitForLoadState('networkidle');
      await page.waitForFunction(() => !document.querySelector('[data-state="loading"], [aria-busy="true"]'));
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    } catch (error) {
      // A refused script usually shows as a page that never comes: say what was refused.
      throw new Error(`${route} did not load; policy violations: ${JSON.stringify(violations, null, 1)}`, {
        cause: error,
      });
    }
  };

  beforeAll(async () => {
    portal = await startPortal({ seedSamples: true });
    const admin = await signIn(portal.app);
    const headers = { authorization: `Bearer ${admin.token}` };
    const appeal = await portal.app.inject({
      method: 'POST',
      url: '/api/appeal/create',
      payload: appealInput(1),
      headers,
    });
    if (appeal.statusCode !== 200) throw new Error(`appeal: ${appeal.statusCode} ${appeal.body}`);
    ids.appeal = String(appeal.json().id);
    const surveys = await portal.app.inject({ method: 'POST', url: '/api/survey/list-search', payload: {}, headers });
    ids.survey = String(surveys.json().list[0].id);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('catches a violation when one happens (the watch itself works)', async () => {
    const context = await watchedContext();
    const page = await context.newPage();
    await visit(page, '/', 'home');
    await page.evaluate(() =>
      document.head.append(Object.assign(document.createElement('script'), { textContent: 'window.injected = 1' })),
    );
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(violations.join('\n')).toMatch(/script-src/);
    expect(await page.evaluate(() => (window as unknown as { injected?: number }).injected)).toBeUndefined();
    violations.length = 0;
    await context.close();
  });

  it('loads every public route, the prerendered ones taken over by the app, without a violation', async () => {
    expect(publicScreens.length).toBeGreaterThan(10);
    const prerendered = Object.keys(
      JSON.parse(readFileSync(path.join(REPO_ROOT, 'dist/web/prerendered/routes.json'), 'utf8')) as Record<
        string,
        string
      >,
    );
    const context = await watchedContext();
    const page = await context.newPage();
    const visited: string[] = [];
    for (const screen of publicScreens) {
      const route = routeOf(screen);
      await visit(page, route, screen.id);
      visited.push(route);
    }
    // The prerendered pages that are not `public` screens (guests may open them by permission).
    for (const route of prerendered.filter((r) => !visited.includes(r))) {
      const screen = screens.find((s) => s.route === route)!;
      await visit(page, route, screen.id);
    }
    await context.close();
    expect(violations).toEqual([]);
  });

  it('loads the main staff screens signed in as admin without a violation', async () => {
    const context = await watchedContext();
    const page = await context.newPage();
    await page.goto(`${portal.url}/admin/appeals`);
    await page.locator('[data-screen="login"]').waitFor();
    await page.locator('[data-field="/username"] input').fill('admin');
    await page.locator('[data-field="/password"] input').fill(TEST_ADMIN_PASSWORD);
    await page.locator('[data-action="sign-in"]').click();
    await waitForScreen(page, '[data-screen="appeal-list"] .ag-row');
    const staff = [
      'appeal-list',
      'appeal-detail',
      'appeal-edit',
      'appeal-new',
      'compliance-case-new',
      'department-tree',
      'survey-results',
      'statistics-prices',
      'profile',
    ];
    for (const id of staff) {
      const screen = screens.find((s) => s.id === id)!;
      await visit(page, routeOf(screen), id);
    }
    // A form checked in the browser (ajv compiles the entity's schema there).
    await visit(page, '/admin/appeals/new', 'appeal-new');
    await page.locator('[data-action="save"]').click();
    await page.locator('[data-field="/shortDescription"]').getByText('Mandatory field').waitFor();
    // The dashboard drew its charts (ApexCharts' SVG and styles).
    await page.goto(`${portal.url}/statistics-prices`);
    await page.locator('.apexcharts-canvas').first().waitFor();
    // The messenger on its live socket (STOMP over WebSocket, same origin).
    await visit(page, screens.find((s) => s.kind === 'messenger')!.route, 'messenger');
    await page.locator('[data-screen="messenger"][data-live="connected"]').waitFor();
    await context.close();
    expect(violations).toEqual([]);
  });
});
