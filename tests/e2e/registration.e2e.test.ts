/**
 * What a person does in Debian's Chromium to get an account: a citizen registers through the
 * /register flow (the code read from the outbox, where it waits when no SMS gateway is
 * configured), lands signed in; then resets the password through /forgot-password and signs
 * in with the new one. On the way the new-password fields' strength meter tells why a weak
 * password is refused (loading zxcvbn's dictionaries only on that step), and the server refuses
 * it too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';
import { browserTestsEnabled, launchBrowser, startPortal, newPortalContext } from '../support/browser.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const PHONE = '+99890-555-12-34';

describe.skipIf(!browserTestsEnabled())('registration in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let page: Page;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await launchBrowser();
    context = await newPortalContext(browser);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** The code of the newest message to this recipient, as the outbox holds it. */
  const lastCode = async (recipient: string): Promise<string> => {
    const { rows } = await portal.app.db.query<{ body: string; status: string }>(
      'SELECT body, status FROM outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1',
      [recipient],
    );
    expect(rows[0]?.status).toBe('undeliverable');
    return /\b(\d{6})\b/.exec(rows[0]!.body)![1]!;
  };
  const input = (pointer: string) => page.locator(`[data-field="${pointer}"] input`);
  const step = (id: string) =>
    page
      .locator(`[data-screen="register"][data-step="${id}"], [data-screen="forgot-password"][data-step="${id}"]`)
      .waitFor();
  const next = () => page.locator('[data-action="next"]').click();
  /** The strength meter under the password field: its state and its words. */
  const meter = () => page.locator('[data-field="/password"] [data-password-meter]');
  const reason = () => meter().locator('[data-password-reason]');
  /** Types a password and waits until the meter has judged it. */
  const typePassword = async (password: string, says: string | RegExp) => {
    await input('/password').fill(password);
    await expect.poll(() => reason().innerText()).toMatch(says);
  };

  it('registers a citizen step by step and lands signed in', async () => {
    // zxcvbn's dictionaries are a chunk of their own, fetched only where a new password is typed.
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const estimatorLoaded = () => scripts.some((s) => /password-estimator/.test(s));
    await page.goto(`${portal.url}/register`);
    await step('kind');
    await page.getByText('A citizen').waitFor();
    await next();
    await step('citizen');
    await input('/pinfl').fill('12345');
    await next();
    expect(await page.locator('[data-field="/pinfl"]').innerText()).toContain('Enter a valid personal ID (14 digits)');
    await input('/pinfl').fill('31234567890123');
    await next();
    await step('contact');
    await input('/contact').fill(PHONE);
    await next();
    await step('confirm');
    expect(await page.locator('[data-region="flow-status"]').innerText()).toBe('The code has been sent');
    // The username is checked while it is typed.
    await input('/username').fill('admin');
    await page.locator('[data-field="/username"]').getByText('This username is already used').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'register-confirm.png'), fullPage: true });
    await input('/username').fill('new.citizen');
    await expect.poll(() => page.locator('[data-field="/username"]').innerText()).not.toContain('already used');
    await input('/token').fill('000000');
    await next();
    await page
      .locator('[data-field="/token"]')
      .getByText(/Wrong code|Too many/)
      .waitFor();
    await input('/token').fill(await lastCode('998905551234'));
    await next();
    expect(estimatorLoaded()).toBe(false);
    await step('profile');
    await input('/lastName').fill('Rahimov');
    await input('/firstName').fill('Jasur');
    await input('/passport').fill('AC1234567');
    expect(await reason().innerText()).toMatch(/At least 12 characters/);
    expect(await page.locator('[data-field="/password"] [role="meter"]').getAttribute('aria-label')).toBe(
      'Password strength',
    );
    await typePassword('12345678', 'Password strength: Very weak. At least 12 characters (now 8)');
    await typePassword('123456789', /At least 12 characters \(now 9\)/);
    // The username chosen two steps back is known to the meter.
    await typePassword('New.Citizen harbour', /The password must not contain the username/);
    await typePassword('password1234', /Too easy to guess: it is similar to a commonly used password/);
    expect(await meter().getAttribute('data-acceptable')).toBe('false');
    await page.screenshot({ path: path.join(SHOTS, 'register-weak-password.png'), fullPage: true });
    expect(estimatorLoaded()).toBe(true);
    // The server says the same when the form is sent anyway, on the field; nothing is created.
    await input('/confirmPassword').fill('password1234');
    await next();
    await page
      .locator('[data-field="/password"]')
      .getByText('Too easy to guess: it is similar to a commonly used password')
      .first()
      .waitFor();
    await typePassword('my first password', /^Password strength: (Strong|Very strong)\. The password meets the rules$/);
    expect(await meter().getAttribute('data-acceptable')).toBe('true');
    await input('/confirmPassword').fill('my first passwort');
    await next();
    await page.locator('[data-field="/confirmPassword"]').getByText('Passwords do not match').waitFor();
    await input('/confirmPassword').fill('my first password');
    await page.screenshot({ path: path.join(SHOTS, 'register-profile.png'), fullPage: true });
    await next();
    await page.locator('[data-user="new.citizen"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const user = await portal.app.db.query<{ data: { isOuter: boolean; roles: string[]; phone: string } }>(
      `SELECT data FROM ${portal.app.tables.get(portal.app.definitions.access!.userEntity)!.table} WHERE data->>'username' = 'new.citizen'`,
    );
    expect(user.rows[0]!.data).toMatchObject({ isOuter: true, roles: ['citizen'], phone: PHONE });
  });

  it('resets the forgotten password with a code and signs in with the new one', async () => {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await fresh.addInitScript(() => localStorage.setItem('portal.locale', JSON.stringify('en')));
    page = await fresh.newPage();
    await page.goto(`${portal.url}/forgot-password`);
    await step('login');
    await input('/login').fill('new.citizen');
    await next();
    await step('new-password');
    await input('/code').fill(await lastCode('998905551234'));
    // The login typed on the first step is the username here: the meter refuses it inside.
    await typePassword('my new.citizen password', /The password must not contain the username/);
    await typePassword('my second password', /The password meets the rules/);
    await input('/confirmPassword').fill('my second password');
    await next();
    await page.locator('[data-screen="login"]').waitFor();
    await page.locator('[data-field="/username"] input').fill('new.citizen');
    await page.locator('[data-field="/password"] input').fill('my second password');
    await page.locator('[data-action="sign-in"]').click();
    await page.locator('[data-user="new.citizen"]').waitFor();
    await fresh.close();
  });
});
