/**
 * The pharmacy desk in Chromium (issue #19 item 4), one portal and one browser: the admin opens
 * the desk's "in execution" list (its count), opens the appeal, finishes it; the "finished" list
 * has it; the sent-SMS log shows the SMS filled from the stored template, masked, with its
 * delivery status once the local SMS gateway stand-in took it. Screenshots at 1280 px (ru) and
 * 360 px (uzCyrillic, no sideways scroll).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createServerAjv } from '../../src/server/validation.ts';
import { browserTestsEnabled, waitForScreen } from '../support/browser.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';
import { createSampler } from '../support/sample-data.ts';
import { startSmsGateway, waitFor } from '../support/mailboxes.ts';

describe.skipIf(!browserTestsEnabled())('the pharmacy desk in Chromium', () => {
  let ctx: StaffBrowser;
  let portal: StaffBrowser['portal'];
  let sms: Awaited<ReturnType<typeof startSmsGateway>>;
  let appeal: { id: number; number: string };

  const pageAs = (route: string, locale: string, width: number) => ctx.pageAs(route, locale, width);

  beforeAll(async () => {
    sms = await startSmsGateway();
    ctx = await openStaffBrowser({ smsGatewayUrl: sms.url });
    const { api, admin } = ctx;
    portal = ctx.portal;
    const defs = portal.app.definitions;
    const sample = createSampler(defs.entities.get('pharmacy-appeal')!.schema, defs.references, createServerAjv());
    const data = { ...sample(31, { full: true }) } as Record<string, unknown>;
    (data.consumer as Record<string, unknown>).phone = '+99890-123-45-67';
    let row = await api(admin, 'POST', '/api/pharm-appeal/create', data);
    // User 1 is the admin from the first start on.
    const adminId = 1;
    for (const [event, payload] of [
      ['ASSIGN_TO_REGION'],
      ['CONFIRM'],
      ['ASSIGN_EXECUTOR', { executorId: adminId }],
    ] as Array<[string, Record<string, unknown>?]>)
      row = await api(admin, 'POST', `/api/pharm-appeal/transition/${row.id}`, {
        event,
        version: row.version,
        ...(payload ? { payload } : {}),
      });
    appeal = { id: row.id as number, number: String(row.number) };
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await sms?.close();
  });

  it('lists the appeal in execution, finishes it, and shows it finished and its SMS sent in the log', async () => {
    const page = await pageAs('/admin/pharmacy/in-execution', 'ru', 1280);
    await waitForScreen(page, '[data-screen="pharmacy-desk-in-execution"] >> nth=0');
    const row = page.locator('[role="row"][row-id]');
    await row.first().waitFor();
    expect(await page.locator('[data-state="count"]').innerText()).toBe('1');
    expect(await row.first().innerText()).toContain(appeal.number);
    // The desk is a group of the menu.
    expect(await page.locator('nav').first().innerText()).toMatch(/Аптеки/i);
    await page.screenshot({ path: path.join(SHOTS, 'pharmacy-desk-ru-1280.png'), fullPage: true });
    await row.first().click();
    await waitForScreen(page, '[data-screen="pharmacy-appeal-detail"]');
    await page.locator('[data-region="transitions"] [data-event="FINISH"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    await page.locator('[data-region="record-status"][data-status="FINISHED"]').waitFor();

    await page.goto(`${portal.url}/admin/pharmacy/finished`);
    await waitForScreen(page, '[data-screen="pharmacy-desk-finished"] >> nth=0');
    await page.locator('[role="row"][row-id]').first().waitFor();
    expect(await page.locator('[role="row"][row-id]').first().innerText()).toContain(appeal.number);

    await page.goto(`${portal.url}/admin/pharmacy/sms`);
    await waitForScreen(page, '[data-screen="pharmacy-sms-log"]');
    const message = page.locator(`[data-record="${appeal.id}"]`);
    // Delivered by the worker after the commit: once the gateway has it, the log says sent.
    await waitFor(async () => {
      const { rows } = await portal.app.db.query<{ status: string }>(
        "SELECT status FROM outbox WHERE entity = 'pharmacy-appeal' AND record_id = $1",
        [appeal.id],
      );
      return rows[0]?.status === 'sent' ? true : undefined;
    });
    await page.reload();
    await message.locator('[data-status="sent"]').waitFor();
    const text = await message.innerText();
    expect(text).toContain('+998 90 *** ** 67');
    expect(text).toContain('pharmacy-appeal-finished');
    expect(text).toContain(appeal.number);
    expect(text).toContain('Отправлено');
    expect(sms.received.some((m) => m.text.includes(appeal.number))).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'pharmacy-sms-log-ru-1280.png'), fullPage: true });
    await page.locator('[data-filter="status"]').selectOption('failed');
    await page.locator('[data-screen="pharmacy-sms-log"] [data-state="empty"]').waitFor();
    await page.context().close();
  });

  it('reads at 360 px in uzCyrillic without sideways scroll', async () => {
    const page = await pageAs('/admin/pharmacy/sms', 'uzCyrillic', 360);
    await waitForScreen(page, '[data-screen="pharmacy-sms-log"]');
    await page.locator(`[data-record="${appeal.id}"]`).first().waitFor();
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await wide()).toBeLessThanOrEqual(360);
    await page.screenshot({ path: path.join(SHOTS, 'pharmacy-sms-log-uzCyrillic-360.png'), fullPage: true });
    await page.goto(`${portal.url}/admin/pharmacy/finished`);
    await waitForScreen(page, '[data-screen="pharmacy-desk-finished"] >> nth=0');
    await page.locator('[data-state="count"]').waitFor();
    expect(await wide()).toBeLessThanOrEqual(360);
    await page.screenshot({ path: path.join(SHOTS, 'pharmacy-desk-uzCyrillic-360.png'), fullPage: true });
    await page.context().close();
  });
});
