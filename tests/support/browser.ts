/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser), and the app
 * served from a fresh in-memory server with the built web app.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { createServer } from 'node:net';
import { buildApp, REPO_ROOT, type BuildAppOptions } from '../../src/server/app.ts';
import { TEST_ADMIN_PASSWORD } from './app.ts';
import { pgliteImage } from './pglite-image.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here (no Chromium or no build), or undefined. */
export function browserUnavailableReason(): string | undefined {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} not found (apt-get install chromium)`;
  if (!existsSync(path.join(REPO_ROOT, 'dist/web/index.html'))) return 'dist/web is missing (npm run build)';
  return undefined;
}

/** Fails in CI (REQUIRE_BROWSER=1) when browser tests cannot run; otherwise tells why they skip. */
export function browserTestsEnabled(): boolean {
  const reason = browserUnavailableReason();
  if (reason && process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  if (reason) console.warn(`[tests] browser tests are SKIPPED: ${reason}`);
  return !reason;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
    ],
  });
}

/** A loopback port free right now (for a server whose URL must be known before it starts). */
/**
 * A new browser context whose portal starts in `locale` (unless the page chose another),
 * at the given width.
 */
export async function newPortalContext(browser: Browser, locale = 'en', width = 1280): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
  await context.addInitScript((l) => {
    if (!localStorage.getItem('portal.locale')) localStorage.setItem('portal.locale', JSON.stringify(l));
  }, locale);
  return context;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The whole portal on a loopback port (free, or `port`), in-memory database. `options` go to
 * buildApp — e.g. trusted CAs or a OneID registration whose redirect URI names `port`. The
 * database starts from the run's migrated PGlite image unless they name their own `root`.
 */
export async function startPortal(
  options: BuildAppOptions & { port?: number } = {},
): Promise<{ app: FastifyInstance; url: string; close(): Promise<void> }> {
  const { port: wanted = 0, ...buildOptions } = options;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const app = await buildApp({
    dataDir,
    inMemory: true,
    adminPassword: TEST_ADMIN_PASSWORD,
    // The run's migrated PGlite (tests/support/pglite-image.ts), unless the test brings its own definitions.
    pgliteImage: buildOptions.root ? undefined : await pgliteImage(),
    ...buildOptions,
  });
  await app.listen({ host: '127.0.0.1', port: wanted });
  const { port } = app.server.address() as { port: number };
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits for a screen (`locator`) to show, and when it does not, fails with what the page
 * showed instead — its address, the main region's text, alerts and toasts — rather than a
 * bare timeout.
 */
export async function waitForScreen(page: Page, selector: string, timeout = 30_000): Promise<void> {
  try {
    await page.locator(selector).waitFor({ timeout });
  } catch (error) {
    const main = await page
      .locator('main')
      .first()
      .innerText({ timeout: 1_000 })
      .catch(() => '(no main region)');
    const alerts = await page
      .locator('[role="alert"], [data-toast], .fui-Toast')
      .allInnerTexts()
      .catch(() => []);
    const states = await page
      .locator('[data-state]')
      .evaluateAll((els) =>
        els.map((e) => `${e.getAttribute('data-screen') ?? e.tagName}:${e.getAttribute('data-state')}`),
      )
      .catch(() => []);
    throw new Error(
      `${selector} did not show at ${page.url()}; states ${JSON.stringify(states)}; alerts ${JSON.stringify(alerts)}; main: ${main.slice(0, 600)}`,
      { cause: error },
    );
  }
}

/**
 * Signs in through the sign-in screen the way a person does: opens `route` (a protected route shows
 * the sign-in screen and returns there after it), waits until the screen is ready, types the name
 * and password, checks they are still in the fields (a late re-render must not leave them empty),
 * presses *Sign in* and waits until the sign-in screen has gone. A refusal shows as the error with
 * the screen's alerts rather than as a later timeout.
 */
export async function signInThroughForm(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(url);
  await waitForScreen(page, '[data-screen="login"]:not([data-state])');
  const usernameInput = page.locator('[data-field="/username"] input');
  const passwordInput = page.locator('[data-field="/password"] input');
  // A re-render while the screen settles may empty the fields: type again until both hold.
  for (let attempt = 1; ; attempt++) {
    await usernameInput.fill(username);
    await passwordInput.fill(password);
    if ((await usernameInput.inputValue()) === username && (await passwordInput.inputValue()) === password) break;
    if (attempt === 5) throw new Error(`the sign-in fields would not keep what was typed for ${username}`);
    await page.waitForTimeout(200);
  }
  await page.locator('[data-action="sign-in"]').click();
  // A refusal is a toast that fades: catch it while it shows, rather than a bare timeout later.
  const refusal = page.locator('[role="alert"], [data-toast], .fui-Toast').first();
  const outcome = await Promise.race([
    page
      .locator('[data-screen="login"]')
      .waitFor({ state: 'detached', timeout: 60_000 })
      .then(() => 'signed in'),
    refusal.waitFor({ timeout: 60_000 }).then(async () => `refused: ${await refusal.innerText().catch(() => '')}`),
  ]).catch((error: Error) => `neither signed in nor refused (${error.message.split('\n')[0]})`);
  if (outcome !== 'signed in')
    throw new Error(`signing in as ${username} at ${page.url()} did not leave the sign-in screen: ${outcome}`);
}

/**
 * The portal's API as browser tests set up their data: `tokenOf` signs in through the API and
 * `api` calls a route with a token (JSON in and out), throwing on anything but 2xx with the
 * status and the body, so that a failing setup says what the server answered.
 * @example const { tokenOf, api } = portalApi(portal.url); await api(await tokenOf('admin', pw), 'GET', '/api/health')
 */
export function portalApi(url: string) {
  const tokenOf = async (username: string, password: string): Promise<string> => {
    const res = await fetch(`${url}/api/auth-payload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (!res.ok) throw new Error(`sign-in of ${username}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { token: string }).token;
  };
  const api = async (token: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return { tokenOf, api };
}
