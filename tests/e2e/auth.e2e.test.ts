/**
 * Signing in and out in Debian's Chromium, every method for real: password (back to the
 * protected route asked for), a regional employee's menus as their permissions allow, sign
 * out to the public page, OneID through a real local OpenID provider's login form, a key
 * file (PKCS#12 written by openssl) opened and used in the browser, and a CMS signature
 * made outside the browser over the challenge the screen shows. Screenshots of the sign-in
 * screen in the four languages at desktop and phone widths go to /tmp/signin-shots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { canOpen, createAbility, rulesFromPermissions } from '../../src/shared/ability.ts';
import { LOCALES } from '../../src/shared/locales.ts';
import {
  browserTestsEnabled,
  freePort,
  launchBrowser,
  newPortalContext,
  signInThroughForm,
  startPortal,
} from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { createTestCa, exportPkcs12, issueUserCertificate, signCms, type TestCa } from '../support/test-ca.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const access = registry.access!;
const userBase = `/api${registry.entities.get(access.userEntity)!.manifest.base}`;
const menuScreens = [...registry.screens.values()].filter((s) => s.menu);
const SHOTS = '/tmp/signin-shots';
const STAFF_ROLE =
  access.roles.find((r) => r.scope === 'REGION' && r.code === 'employee') ??
  access.roles.find((r) => r.scope === 'REGION')!;
const ONEID_PINFL = '30101900000011';

/** Menu screen ids a holder of these permissions sees. */
/** The menu entries a staff user with these permissions gets: those they may open, meant for staff or everyone (`audience`). */
const menusFor = (permissions: string[], signedIn = true): string[] => {
  const ability = createAbility(rulesFromPermissions(permissions));
  return (
    menuScreens
      // Screens open to any signed-in user (the staff home) are in a signed-in user's menu too.
      .filter((s) => canOpen(ability, s.permission, signedIn) && (!s.audience || s.audience === 'staff'))
      .map((s) => s.id)
      .sort()
  );
};

describe.skipIf(!browserTestsEnabled())('signing in and out in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let provider: TestOidcProvider;
  let ca: TestCa;
  let admin: Record<string, string>;
  const contexts: BrowserContext[] = [];

  /** A fresh browser profile (nothing remembered) in English, at `width`. */
  const newPage = async (width = 1280, locale = 'en'): Promise<Page> => {
    const context = await newPortalContext(browser, locale, width);
    contexts.push(context);
    return context.newPage();
  };
  const createUser = async (data: Record<string, unknown>, password?: string): Promise<number> => {
    const res = await fetch(`${portal.url}${userBase}/create`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(data),
    });
    const body = (await res.json()) as { id: number };
    expect(res.status, JSON.stringify(body)).toBe(200);
    if (password) {
      const set = await fetch(`${portal.url}/api/auth/set-password`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ userId: body.id, password }),
      });
      expect(set.status).toBe(200);
    }
    return body.id;
  };
  const menuIds = async (page: Page): Promise<string[]> =>
    (
      await page
        .locator('[data-region="menu"] [data-menu]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu') ?? ''))
    ).sort();

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ca = await createTestCa({ cn: 'Throwaway e-signature CA' });
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/api/product-auth/auth/oneid/redirectUri`;
    provider = await startTestOidcProvider({
      clientId: 'portal',
      clientSecret: 'portal-secret',
      redirectUri,
      interaction: 'form',
      account: { sub: 'oneid-login', pin: ONEID_PINFL, first_name: 'Nodira', sur_name: 'Yusupova' },
    });
    portal = await startPortal({
      port,
      signatureTrustedCas: [ca.pem],
      oneId: { issuer: provider.issuer, clientId: 'portal', clientSecret: 'portal-secret', redirectUri },
    });
    browser = await launchBrowser();
    const signIn = await fetch(`${portal.url}/api/auth-payload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
    admin = {
      authorization: `Bearer ${((await signIn.json()) as { token: string }).token}`,
      'content-type': 'application/json',
      'accept-language': 'en',
    };
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await portal?.close();
    await provider?.close();
  });

  it('shows every method the server has set up, in four languages, on a desktop and a phone', async () => {
    for (const width of [1280, 360]) {
      for (const locale of LOCALES) {
        const page = await newPage(width);
        await page.goto(`${portal.url}/login`);
        await page.locator('[data-screen="login"] [data-action="sign-in-oneid"]').waitFor();
        // Switched with the header's language switcher, as a person would.
        await page.locator('[data-action="language"]').selectOption(locale);
        const texts = JSON.parse(readFileSync(path.join(REPO_ROOT, `src/i18n/locales/${locale}.json`), 'utf8')) as {
          screen: { login: { title: string } };
          auth: { methods: { key: string } };
        };
        await expect.poll(() => page.locator('[data-screen="login"] h1').innerText()).toBe(texts.screen.login.title);
        expect(await page.locator('[data-action="method-key"]').innerText()).toBe(texts.auth.methods.key);
        for (const selector of [
          '[data-action="method-password"]',
          '[data-action="method-key"]',
          '[data-action="method-signature"]',
          '[data-link="forgot-password"]',
          '[data-link="register"]',
          '[data-link="tutorial"]',
          '[data-help="call-centre"]',
          '[data-field="/username"]',
          '[data-field="/password"]',
        ]) {
          expect(await page.locator(selector).count(), selector).toBe(1);
        }
        await page.screenshot({ path: `${SHOTS}/login-${locale}-${width}.png`, fullPage: true });
        if (locale === 'en') {
          await page.locator('[data-action="method-key"]').click();
          await page.waitForTimeout(500); // the tab indicator slides
          await page.screenshot({ path: `${SHOTS}/login-key-${width}.png`, fullPage: true });
          await page.locator('[data-action="method-signature"]').click();
          await page.locator('[data-challenge]:not([data-challenge=""])').waitFor();
          await page.waitForTimeout(500);
          await page.screenshot({ path: `${SHOTS}/login-signature-${width}.png`, fullPage: true });
        }
        if (locale === 'ru' || width === 1280) {
          // The tutorial the screen links to, in the language just chosen.
          await page.locator('[data-link="tutorial"]').click();
          await page.locator('[data-screen="help-sign-in"] [data-paragraph="p6"]').waitFor();
          expect(await page.locator('[data-screen="help-sign-in"] h1').innerText()).toBe(
            (
              JSON.parse(readFileSync(path.join(REPO_ROOT, `src/i18n/locales/${locale}.json`), 'utf8')) as {
                page: { signInHelp: { title: string } };
              }
            ).page.signInHelp.title,
          );
          if (locale === 'ru' || locale === 'en')
            await page.screenshot({ path: `${SHOTS}/help-${locale}-${width}.png`, fullPage: true });
        }
        await page.context().close();
      }
    }
  });

  it('sends a signed-out visitor of a protected route to sign in, and back there after it', async () => {
    const target = [...registry.screens.values()].find((s) => s.kind === 'list' && s.permission !== 'public')!;
    const page = await newPage();
    await page.goto(`${portal.url}${target.route}`);
    await page.locator('[data-screen="login"]').waitFor();
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(target.route);
    await page.locator('[data-field="/username"] input').fill('admin');
    await page.locator('[data-field="/password"] input').fill(TEST_ADMIN_PASSWORD);
    await page.locator('[data-action="sign-in"]').click();
    await page.locator(`[data-screen="${target.id}"]`).first().waitFor();
    expect(new URL(page.url()).pathname).toBe(target.route);
  });

  it('keeps the session in two tabs whose access token expired together: one renews it, the other uses that', async () => {
    const target = [...registry.screens.values()].find((s) => s.kind === 'list' && s.permission !== 'public')!;
    const first = await newPage();
    await signInThroughForm(first, `${portal.url}${target.route}`, 'admin', TEST_ADMIN_PASSWORD);
    const second = await first.context().newPage();
    await second.goto(`${portal.url}${target.route}`);
    await second.locator(`[data-screen="${target.id}"]`).first().waitFor();

    // Each refresh token the tabs present. The first renewal is held until the other tab has
    // had its own 401 too, so that both tabs want to renew at once.
    const presented: string[] = [];
    const refused = new Map<Page, Promise<void>>();
    for (const page of [first, second])
      refused.set(
        page,
        new Promise<void>((resolve) =>
          page.on('response', (res) => {
            if (res.status() === 401 && new URL(res.url()).pathname.startsWith('/api/')) resolve();
          }),
        ),
      );
    await first.context().route('**/api/o/token/', async (route) => {
      presented.push((JSON.parse(route.request().postData() ?? '{}') as { refresh_token: string }).refresh_token);
      if (presented.length === 1) {
        const from = route.request().frame().page();
        const other = from === first ? second : first;
        await Promise.race([refused.get(other), new Promise((resolve) => setTimeout(resolve, 30_000))]);
      }
      // A request whose page reloaded meanwhile is gone: nothing to continue.
      await route.continue().catch(() => undefined);
    });
    // Both tabs' access token expires (the tabs share the stored session), and both reload.
    await first.evaluate(() => localStorage.setItem('portal.accessToken', JSON.stringify('expired.access.token')));
    await Promise.all([first.reload(), second.reload()]);
    for (const page of [first, second]) await page.locator(`[data-screen="${target.id}"]`).first().waitFor();
    await Promise.all([refused.get(first), refused.get(second)]);

    // Both tabs are still signed in, the next page load too, and the session was renewed
    // once for both: no refresh token was presented twice (the server would have ended it).
    await first.context().unroute('**/api/o/token/');
    for (const page of [first, second]) {
      await page.reload();
      await page.locator(`[data-screen="${target.id}"]`).first().waitFor();
      await page.locator('[data-user="admin"]').waitFor({ timeout: 15_000 });
      expect(new URL(page.url()).pathname).toBe(target.route);
    }
    expect(presented.length).toBeGreaterThan(0);
    expect(new Set(presented).size).toBe(presented.length);
    await first.context().close();
  });

  it(`shows a regional ${STAFF_ROLE.code} only the menus their permissions allow, and signs out to the public page`, async () => {
    await createUser(
      {
        username: 'region-staff',
        firstName: 'Aziz',
        lastName: 'Rahimov',
        isOuter: false,
        canLogin: true,
        roles: [STAFF_ROLE.code],
        regionId: 1,
      },
      'staff password 1',
    );
    const expected = menusFor(STAFF_ROLE.permissions);
    const everything = menusFor(['manage all']);
    // The expectations come from access.json; they must say something both ways.
    expect(expected.length).toBeGreaterThan(0);
    expect(everything.filter((id) => !expected.includes(id)).length).toBeGreaterThan(0);

    const page = await newPage();
    await page.goto(`${portal.url}/login`);
    await page.locator('[data-field="/username"] input').fill('region-staff');
    await page.locator('[data-field="/password"] input').fill('staff password 1');
    await page.locator('[data-action="sign-in"]').click();
    await page.locator('[data-user="region-staff"]').waitFor();
    expect(await menuIds(page)).toEqual(expected);
    // A screen outside the role: denied, not shown.
    const denied = menuScreens.find((s) => !expected.includes(s.id))!;
    await page.goto(`${portal.url}${denied.route}`);
    await page.locator(`[data-screen="${denied.id}"][data-denied="true"]`).waitFor();

    await page.locator('[data-action="sign-out"]').click();
    await page.locator('[data-screen="home"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.locator('[data-action="open-sign-in"]').waitFor();
    expect(await menuIds(page)).toEqual(menusFor(access.guest.permissions, false));
    expect(await page.evaluate(() => localStorage.getItem('portal.accessToken'))).toBeNull();
  });

  it("signs in through OneID: the provider's own login form, the callback, back signed in as the user with that PINFL", async () => {
    await createUser({
      username: 'oneid-holder',
      firstName: 'Nodira',
      lastName: 'Yusupova',
      isOuter: true,
      canLogin: true,
      roles: access.outerRoles,
      pinfl: ONEID_PINFL,
    });
    const page = await newPage();
    await page.goto(`${portal.url}/login?redirect=${encodeURIComponent('/privacy-policy')}`);
    await page.locator('[data-action="sign-in-oneid"]').click();
    // On the provider: its login form, then its consent form.
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.locator('input[name="login"]').waitFor();
    expect(await page.locator('input[name="login"]').inputValue()).toBe('oneid-login');
    await page.locator('[data-oidc-form="login"] [data-oidc-submit]').click();
    await page.locator('[data-oidc-form="consent"] [data-oidc-submit]').click();
    // Back on the portal, signed in, where the sign-in started.
    await page.locator('[data-user="oneid-holder"]').waitFor();
    await page.locator('[data-screen="privacy-policy"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/privacy-policy');
    expect(new URL(page.url()).hash).toBe('');
  });

  it('signs in by a key file opened in the browser, and says plainly what is wrong with a bad one', async () => {
    const holder = await issueUserCertificate(ca, { cn: 'Karimov Anvar', pinfl: '31234567890123', tin: '512345678' });
    await createUser({
      username: 'key-holder',
      firstName: 'Anvar',
      lastName: 'Karimov',
      isOuter: true,
      canLogin: true,
      roles: access.outerRoles,
      pinfl: '31234567890123',
    });
    const page = await newPage();
    const firstVisit: string[] = [];
    page.on('request', (r) => firstVisit.push(r.url()));
    await page.goto(`${portal.url}/login?redirect=${encodeURIComponent('/privacy-policy')}`);
    await page.locator('[data-action="method-key"]').click();
    await page.locator('[data-field="/keyFile"]').waitFor({ state: 'attached' });
    // pkijs comes only when a key is used.
    expect(firstVisit.filter((u) => /keyfile/i.test(u))).toEqual([]);
    const keyInput = page.locator('input[data-field="/keyFile"]');

    await keyInput.setInputFiles({
      name: 'old.pfx',
      mimeType: 'application/x-pkcs12',
      buffer: await exportPkcs12(holder, 'key password 1', 'legacy'),
    });
    await page.locator('input[data-field="/keyPassword"]').fill('key password 1');
    await page.locator('[data-action="sign-in-key"]').click();
    expect(await page.locator('[data-error="key"]').innerText()).toMatch(/old encryption \(3DES\/RC2\)/);
    await page.screenshot({ path: `${SHOTS}/login-key-error-1280.png`, fullPage: true });
    expect(firstVisit.some((u) => /keyfile/i.test(u))).toBe(true);

    await keyInput.setInputFiles({
      name: 'key.pfx',
      mimeType: 'application/x-pkcs12',
      buffer: await exportPkcs12(holder, 'key password 1'),
    });
    await page.locator('input[data-field="/keyPassword"]').fill('not the password');
    await page.waitForTimeout(1100); // the button's lock after a click
    await page.locator('[data-action="sign-in-key"]').click();
    await expect.poll(() => page.locator('[data-error="key"]').innerText()).toBe('Wrong key password');

    const stranger = await issueUserCertificate(await createTestCa({ cn: 'Unknown CA' }), {
      cn: 'X',
      pinfl: '31234567890123',
    });
    await keyInput.setInputFiles({
      name: 'other.p12',
      mimeType: 'application/x-pkcs12',
      buffer: await exportPkcs12(stranger, 'key password 1'),
    });
    await page.locator('input[data-field="/keyPassword"]').fill('key password 1');
    await page.waitForTimeout(1100);
    await page.locator('[data-action="sign-in-key"]').click();
    // A refusal stays in the form, not in a toast that fades.
    await page.locator('[data-error="key"][role="alert"]').waitFor();
    expect(await page.locator('[data-error="key"]').innerText()).toContain(
      'not issued by a trusted certification centre',
    );

    await keyInput.setInputFiles({
      name: 'key.pfx',
      mimeType: 'application/x-pkcs12',
      buffer: await exportPkcs12(holder, 'key password 1'),
    });
    await page.waitForTimeout(1100);
    await page.locator('[data-action="sign-in-key"]').click();
    await page.locator('[data-user="key-holder"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/privacy-policy');
  });

  it('signs in by a signature made outside the browser over the challenge the screen shows', async () => {
    const holder = await issueUserCertificate(ca, { cn: 'Toshmatova Dilnoza', pinfl: '41234567890123' });
    const page = await newPage();
    await page.goto(`${portal.url}/login?redirect=${encodeURIComponent('/privacy-policy')}`);
    await page.locator('[data-action="method-signature"]').click();
    const shown = page.locator('[data-challenge]:not([data-challenge=""])');
    await shown.waitFor();
    let challenge = (await shown.getAttribute('data-challenge'))!;
    expect(await page.locator('[data-challenge]').innerText()).toBe(challenge);

    // Someone else's PINFL with this signature: refused, with the reason; a new text appears.
    await page.locator('input[data-field="/identity"]').fill('49999999999999');
    await page.locator('input[data-field="/signatureFile"]').setInputFiles({
      name: 'login.p7s',
      mimeType: 'application/pkcs7-signature',
      buffer: Buffer.from(await signCms(holder, challenge, { detached: true }), 'base64'),
    });
    await page.locator('[data-action="sign-in-signature"]').click();
    await page.locator('[data-error="signature"][role="alert"]').waitFor();
    expect(await page.locator('[data-error="signature"]').innerText()).toContain('PINFL or TIN does not match');
    await expect.poll(() => page.locator('[data-challenge]').getAttribute('data-challenge')).not.toBe(challenge);
    challenge = (await shown.getAttribute('data-challenge'))!;

    // The right one: a detached signature as DER (.p7s), as signing programs write it.
    await page.locator('input[data-field="/identity"]').fill('41234567890123');
    await page.locator('input[data-field="/signatureFile"]').setInputFiles({
      name: 'login.p7s',
      mimeType: 'application/pkcs7-signature',
      buffer: Buffer.from(await signCms(holder, challenge, { detached: true }), 'base64'),
    });
    await page.waitForTimeout(1100);
    await page.locator('[data-action="sign-in-signature"]').click();
    await page.locator('[data-user="signature-41234567890123"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/privacy-policy');
  });
});
