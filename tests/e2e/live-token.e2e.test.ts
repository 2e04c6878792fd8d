/**
 * The web app's live socket outlives its access token: the server ends the socket when the
 * token it was opened with expires (ERROR frame), the app renews the token with its refresh
 * token and reconnects with the new one, and live messages keep arriving — in Chromium,
 * against a portal whose access tokens live a few seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { browserTestsEnabled, launchBrowser, startPortal, signInThroughForm } from '../support/browser.ts';
import { createStaff, STOMP_PASSWORD } from '../support/stomp.ts';
import { signIn } from '../support/app.ts';

const TOKEN_SECONDS = 4;

describe.skipIf(!browserTestsEnabled())('live socket in Chromium across an access token expiry', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    portal = await startPortal({ accessTokenSeconds: TOKEN_SECONDS, livePollMs: 3_600_000 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await portal?.close();
  });

  it('reconnects with the renewed token and still receives messages live', async () => {
    const alice = await createStaff(portal.app, 'alice', ['employee'], { firstName: 'Alisher', lastName: 'Karimov' });
    const bob = await createStaff(portal.app, 'bob', ['employee'], { firstName: 'Bobur', lastName: 'Toshmatov' });
    context = await browser.newContext({ viewport: { width: 1280, height: 760 }, locale: 'en-US' });
    await context.addInitScript(() => localStorage.setItem('portal.locale', JSON.stringify('en')));
    const page = await context.newPage();
    await signInThroughForm(page, `${portal.url}/admin/messenger`, 'alice', STOMP_PASSWORD);
    await page.locator('[data-screen="messenger"][data-live="connected"]').waitFor();

    const sessionOf = () => [...portal.app.stompSessions].find((s) => s.user?.id === alice.id)?.user;
    const first = sessionOf();
    expect(first?.expiresAt).toBeDefined();
    // The first socket is ended at its token's expiry; a later one carries a token that expires later.
    await expect
      .poll(() => (sessionOf()?.expiresAt ?? 0) > first!.expiresAt!, { timeout: 30_000, interval: 200 })
      .toBe(true);
    await page.locator('[data-screen="messenger"][data-live="connected"]').waitFor();

    // Bob writes (with a fresh token of his own): Alice's list shows it without a reload.
    const fresh = await signIn(portal.app, 'bob', STOMP_PASSWORD);
    const sent = await fetch(`${portal.url}/api/chat-message/sendMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fresh.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ receiverId: Number(alice.id), message: 'Yangi token bilan salom' }),
    });
    expect(sent.status).toBe(200);
    await page.locator(`[data-row="user-${bob.id}"] [data-unread="1"]`).waitFor({ timeout: 20_000 });
  });
});
