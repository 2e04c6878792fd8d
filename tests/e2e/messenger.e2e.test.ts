/**
 * Two staff members chat in Chromium, each in a browser profile of their own: Alice at
 * desktop width, Bob on a 360 px phone. Messages, an edit, a delete and the read mark move
 * live over the STOMP socket; the unread counter shows before Bob opens the chat. An
 * attachment arrives live with its kind's icon, name and size and downloads byte for byte. On a phone
 * Alice sees photos (or initials), searches a chat and forwards a message to a group.
 * Screenshots go to /tmp/messenger-shots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { browserTestsEnabled, launchBrowser, startPortal, signInThroughForm } from '../support/browser.ts';
import { createStaff, STOMP_PASSWORD } from '../support/stomp.ts';
import { PNG } from '../support/multipart.ts';

const SHOTS = '/tmp/messenger-shots';

describe.skipIf(!browserTestsEnabled())('messenger in Chromium: two users chatting', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  const contexts: BrowserContext[] = [];
  let alice: { id: string };
  let bob: { id: string; token: string };

  const signedIn = async (username: string, width: number): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 760 }, locale: 'en-US' });
    contexts.push(context);
    await context.addInitScript(() => localStorage.setItem('portal.locale', JSON.stringify('en')));
    const page = await context.newPage();
    await signInThroughForm(page, `${portal.url}/admin/messenger`, username, STOMP_PASSWORD);
    await page.locator('[data-screen="messenger"][data-live="connected"]').waitFor();
    return page;
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    alice = await createStaff(portal.app, 'alice', ['employee'], { firstName: 'Alisher', lastName: 'Karimov' });
    bob = await createStaff(portal.app, 'bob', ['employee'], { firstName: 'Bobur', lastName: 'Toshmatov' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await portal?.close();
  });

  it('Alice writes, Bob (360 px) sees the unread count, reads and answers; edit, delete and read state move live', async () => {
    const a = await signedIn('alice', 1280);
    const b = await signedIn('bob', 360);

    await a.locator('[data-tab="contacts"]').click();
    await a.locator(`[data-row="user-${bob.id}"]`).click();
    await a
      .locator('[data-input="message"] textarea, textarea[data-input="message"]')
      .first()
      .fill('Salom, Bobur! Hisobot tayyormi?');
    await a.locator('[data-action="send"]').click();
    await a.locator('[data-region="messages"] [data-message]', { hasText: 'Hisobot tayyormi' }).waitFor();

    // Bob's chat list shows the new chat with one unread message, without reloading.
    await b.locator(`[data-row="user-${alice.id}"] [data-unread="1"]`).waitFor();
    await b.locator(`[data-row="user-${alice.id}"]`).click();
    await b.locator('[data-region="messages"] [data-message]', { hasText: 'Hisobot tayyormi' }).waitFor();
    // Opening the chat reads it: Alice's message turns READ on her screen.
    await a.locator('[data-message][data-own="true"][data-read="READ"]').waitFor();

    const bobInput = b.locator('textarea').first();
    await bobInput.fill('Ha, soat 15 gacha yuboraman');
    await bobInput.press('Enter');
    await a.locator('[data-region="messages"] [data-message]', { hasText: 'soat 15 gacha' }).waitFor();

    // Alice edits her message: Bob sees the new text and the edited mark.
    const own = a.locator('[data-message][data-own="true"]').first();
    await own.hover();
    await own.locator('[data-action="edit"]').click();
    await a.locator('textarea').first().fill('Salom, Bobur! Hisobot bugun tayyormi?');
    await a.locator('[data-action="send"]').click();
    await b.locator('[data-message]', { hasText: 'bugun tayyormi' }).locator('[data-edited]').waitFor();

    await b.screenshot({ path: `${SHOTS}/bob-360.png`, fullPage: false });
    const width = await b.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);

    // Bob deletes his answer: it goes from Alice's view.
    const bobsOwn = b.locator('[data-message][data-own="true"]', { hasText: 'soat 15 gacha' });
    await bobsOwn.locator('[data-action="delete"]').click();
    await a.locator('[data-message]', { hasText: 'soat 15 gacha' }).waitFor({ state: 'detached' });
    await a.screenshot({ path: `${SHOTS}/alice-desktop.png` });
  });

  it('Alice sends a PDF through the screen; Bob sees it live with its icon, name and size, and downloads the same bytes', async () => {
    const a = await signedIn('alice', 1280);
    const b = await signedIn('bob', 1280);
    // Through the contacts (the chat is made on first use): the test stands on its own.
    await b.locator('[data-tab="contacts"]').click();
    await b.locator(`[data-row="user-${alice.id}"]`).click();
    await b.locator('[data-chat-title]', { hasText: 'Karimov Alisher' }).waitFor();

    // 1.5 KB of a PDF: the server tells the type by its first bytes, the screen shows the kind.
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1536 - 15, 0x20), Buffer.from('\n%%EOF')]);
    expect(pdf.length).toBe(1536);
    await a.locator('[data-tab="contacts"]').click();
    await a.locator(`[data-row="user-${bob.id}"]`).click();
    await a
      .locator('[data-input="file"]')
      .setInputFiles({ name: 'hisobot-2026.pdf', mimeType: 'application/pdf', buffer: pdf });
    await a.locator('[data-pending-file="hisobot-2026.pdf"][data-file-type="pdf"]').waitFor();
    await a.locator('textarea').first().fill('Hisobot ilova qilindi');
    await a.locator('[data-action="send"]').click();

    const attachment = b
      .locator('[data-message]', { hasText: 'Hisobot ilova qilindi' })
      .locator('[data-file-type="pdf"]');
    await attachment.waitFor();
    expect(await attachment.locator('[data-file-name]').textContent()).toBe('hisobot-2026.pdf');
    expect(await attachment.locator('[data-file-size]').textContent()).toBe('1.5 KB');
    await b.screenshot({ path: `${SHOTS}/bob-attachment.png` });
    const [download] = await Promise.all([b.waitForEvent('download'), attachment.click()]);
    expect(download.suggestedFilename()).toBe('hisobot-2026.pdf');
    const saved = readFileSync((await download.path())!);
    expect(saved.equals(pdf)).toBe(true);
  });

  it('loads older messages as Bob scrolls up (infinite scroll) until the first one', async () => {
    const carol = await createStaff(portal.app, 'carol', ['employee'], { firstName: 'Kamola', lastName: 'Rahimova' });
    const auth = { authorization: `Bearer ${carol.token}`, 'content-type': 'application/json' };
    const chatId = (
      await (
        await fetch(`${portal.url}/api/chat/create/${bob.id}`, {
          method: 'POST',
          headers: { authorization: auth.authorization },
        })
      ).json()
    ).chatId;
    for (let i = 1; i <= 70; i++) {
      await fetch(`${portal.url}/api/chat-message/sendMessage`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ chatId, message: `eski xabar ${i}` }),
      });
    }
    const b = await signedIn('bob', 360);
    await b.locator(`[data-row="user-${carol.id}"]`).click();
    await b.locator('[data-message]', { hasText: 'eski xabar 70' }).waitFor();
    const oldest = b.locator('[data-message] [data-text]').filter({ hasText: /^eski xabar 1$/ });
    expect(await oldest.count()).toBe(0);
    const area = b.locator('[data-region="messages"]');
    for (let i = 0; i < 10 && !(await oldest.count()); i++) {
      await area.evaluate((el) => {
        el.scrollTop = 0;
        el.dispatchEvent(new Event('scroll'));
      });
      await b.waitForTimeout(300);
    }
    await oldest.waitFor();
    expect(await b.locator('[data-message]').count()).toBe(70);
  });

  it('Alice makes a group in the dialog, writes there and renames it; Bob sees both live', async () => {
    const a = await signedIn('alice', 1280);
    const b = await signedIn('bob', 1280);
    await a.locator('[data-tab="groups"]').click();
    await a.locator('[data-action="new-group"]').click();
    await a.locator('[data-input="group-name"] input, input[data-input="group-name"]').first().fill('Hisobotlar');
    await a.locator(`input[data-member="${bob.id}"], [data-member="${bob.id}"] input`).first().check();
    await a.locator('[data-action="create-group"]').click();
    await a.locator('[data-chat-title]', { hasText: 'Hisobotlar' }).waitFor();
    await a.locator('textarea').first().fill('Guruhga xush kelibsiz');
    await a.locator('[data-action="send"]').click();

    await b.locator('[data-tab="groups"]').click();
    const row = b.locator('[data-row^="group-"]', { hasText: 'Hisobotlar' });
    await row.locator('[data-unread="1"]').waitFor();
    await row.click();
    await b.locator('[data-text]', { hasText: 'Guruhga xush kelibsiz' }).waitFor();

    await a.locator('[data-action="group-settings"]').click();
    const name = a.locator('[data-region="group-settings"] input').first();
    await name.fill('Oylik hisobotlar');
    await a.locator('[data-action="rename-group"]').click();
    await b.locator('[data-row^="group-"]', { hasText: 'Oylik hisobotlar' }).waitFor();
  });

  it('on a 360 px phone Alice sees photos or initials, searches a chat and forwards a message to a group', async () => {
    // Bob sets his photo through the profile upload.
    const form = new FormData();
    form.set('file', new Blob([PNG], { type: 'image/png' }), 'bob.png');
    const uploaded = await fetch(`${portal.url}/api/file-entity/save/employee-photo/for-profile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bob.token}` },
      body: form,
    });
    expect(uploaded.status).toBe(200);

    const a = await signedIn('alice', 360);
    await a.locator('[data-tab="contacts"]').click();
    await a.locator(`[data-row="user-${bob.id}"] [data-photo="image"]`).waitFor();
    expect(await a.locator('[data-row^="user-"] [data-photo="initials"]').count()).toBeGreaterThan(0);
    await a.screenshot({ path: `${SHOTS}/alice-360-contacts.png` });

    await a.locator('[data-tab="chats"]').click();
    await a.locator(`[data-row="user-${bob.id}"]`).click();
    await a.locator('[data-action="search-chat"]').click();
    await a.locator('[data-input="chat-search"] input, input[data-input="chat-search"]').first().fill('BUGUN');
    await a.locator('[data-region="search-results"] [data-message]', { hasText: 'bugun tayyormi' }).waitFor();
    expect(await a.locator('[data-region="search-results"] [data-message]').count()).toBe(1);
    await a.screenshot({ path: `${SHOTS}/alice-360-search.png` });
    expect(await a.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await a.locator('[data-action="search-chat"]').click();

    const message = a.locator('[data-region="messages"] [data-message]', { hasText: 'bugun tayyormi' });
    await message.locator('[data-action="forward"]').click();
    const target = a.locator('[data-region="forward"] [data-target^="group-"]', { hasText: 'Oylik hisobotlar' });
    await target.click();
    await a.screenshot({ path: `${SHOTS}/alice-360-forward.png` });
    await a.locator('[data-action="forward-send"]').click();
    await a.locator('[data-region="forward"]').waitFor({ state: 'detached' });

    // The copy is in the group, marked forwarded, for Bob too.
    const b = await signedIn('bob', 1280);
    await b.locator('[data-tab="groups"]').click();
    await b.locator('[data-row^="group-"]', { hasText: 'Oylik hisobotlar' }).click();
    await b.locator('[data-message]', { hasText: 'bugun tayyormi' }).locator('[data-forwarded]').waitFor();
  });
});
