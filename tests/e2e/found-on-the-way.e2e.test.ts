/**
 * Issue #17's "found on the way", where only a browser shows them — one portal and one
 * Chromium: the fuel stations' list reaches every station through its pager and
 * says how many there are; the hearing schedule says on the field that a date range is reversed;
 * a confirmation dialog opened on a scrolled page leaves the page where it was, the header and
 * menu in view; a new contractor's STIR that is registered already links to that record.
 * Screenshots (ru and uzCyrillic, 1280 and 360 px) go to .tmp/screenshots.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { browserTestsEnabled, portalApi, signInThroughForm, waitForScreen } from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { axeProblems, noOverflow, SHOTS, usePublicPortal } from '../support/public-browser.ts';

const shot = (name: string) => path.join(SHOTS, `found-on-the-way-${name}.png`);

describe.skipIf(!browserTestsEnabled())('found on the way (issue #17) in Chromium', () => {
  // No sample rows (a quicker start): the tests make the few they need.
  const { open, portal } = usePublicPortal({ seedSamples: false });
  const admin = async () => {
    const { tokenOf, api } = portalApi(portal().url);
    const token = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    return (method: string, route: string, body?: unknown) => api(token, method, route, body);
  };

  it('/fair-price-stations: the station list shows how many stations there are and pages through all of them', async () => {
    const api = await admin();
    for (let i = 1; i <= 45; i++)
      await api('POST', '/api/fuel-price/create', {
        stationName: `AYOQSH-${i}`,
        address: `Toshkent sh., Chilonzor t., ${i}-uy`,
        regionId: 1 + (i % 14),
        fuelTypeId: 1,
        price: 8000 + i * 10,
        date: `2026-11-${String(1 + (i % 25)).padStart(2, '0')}`,
      });
    const page = await open('/fair-price-stations', 1280);
    const count = page.locator('[data-panel="stations"] [data-count]');
    await count.waitFor();
    const [, total] = /of ([\d\s]+)$/.exec(await count.innerText())!;
    expect(Number(total!.replace(/\s/g, ''))).toBe(45);
    expect(await count.innerText()).toMatch(/^Rows 1–20 of /);
    expect(await page.locator('[data-panel="stations"] [data-row]').count()).toBe(20);
    const first = await page.locator('[data-panel="stations"] [data-row="0"]').innerText();
    await page.locator('[data-panel="stations"] [data-action="next-page"]').click();
    await expect.poll(() => count.innerText()).toMatch(/^Rows 21–40 of /);
    expect(await page.locator('[data-panel="stations"] [data-row="0"]').innerText()).not.toBe(first);
    expect(await axeProblems(page, ['[data-panel="stations"]'])).toEqual([]);
    await page.context().close();
    for (const [locale, width] of [
      ['ru', 1280],
      ['uzCyrillic', 360],
    ] as const) {
      const localized = await open('/fair-price-stations', width, locale);
      const pager = localized.locator('[data-panel="stations"] [data-count]');
      await pager.waitFor();
      if (width === 360) await noOverflow(localized);
      await pager.scrollIntoViewIfNeeded();
      await localized.screenshot({ path: shot(`stations-pager-${locale}-${width}`) });
      await localized.context().close();
    }
  });

  it('/court-table: a reversed date range is a plain error on the "to" field, and nothing is asked', async () => {
    for (const [locale, width] of [
      ['ru', 1280],
      ['uzCyrillic', 360],
    ] as const) {
      const page = await open('/court-table', width, locale);
      const asked: string[] = [];
      page.on('request', (r) => r.url().includes('/hearings') && asked.push(r.url()));
      await page.locator('[data-field="/from"] input').first().pressSequentially('31122026');
      await page.locator('[data-field="/to"] input').first().pressSequentially('01112026');
      await page.locator('[data-action="search"]').click();
      const error = page.locator('[data-field="/to"] [role="alert"], [data-field="/to"] .fui-Field__validationMessage');
      await error.first().waitFor();
      if (locale === 'ru')
        expect(await error.first().innerText()).toContain('Дата окончания не может быть раньше даты начала');
      expect(asked).toEqual([]);
      if (width === 360) await noOverflow(page);
      await page.screenshot({ path: shot(`court-table-reversed-${locale}-${width}`) });
      await page.context().close();
    }
  });

  it('a confirmation dialog on a scrolled page leaves it where it was, the header and menu in view; a duplicate STIR links to the record', async () => {
    const created = await (await admin())('POST', '/api/contractor/create', {
      name: 'Olmaliq MMC',
      stir: '301112229',
      regionId: 1,
      address: 'Toshkent, Amir Temur 1',
      director: 'Karimov A.',
      accountant: 'Aliyeva B.',
      phone: '+99890-123-45-67',
      email: 'info@olmaliq.uz',
      oked: '12345',
      employeesCount: 10,
    });
    const page = await open('/', 1280, 'ru');
    await signInThroughForm(page, `${portal().url}/admin/contractors/${created.id}`, 'admin', TEST_ADMIN_PASSWORD);
    // The signed-in admin's language is Russian; the phone is drawn afresh at its width. The
    // record page reads as a short page now: a low window still leaves it room to scroll.
    for (const [width, height] of [
      [1280, 420],
      [360, 640],
    ] as const) {
      await page.setViewportSize({ width, height });
      if (width === 360) await page.reload();
      await waitForScreen(page, '[data-action="delete"]');
      const scrolled = await page.evaluate(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        return window.scrollY;
      });
      expect(scrolled).toBeGreaterThan(100);
      // Opened as a person would from there, without the driver scrolling to the button first.
      await page.evaluate(() => document.querySelector<HTMLElement>('[data-action="delete"]')!.click());
      await page.locator('[data-dialog="confirm"] [data-action="cancel"]:focus').waitFor();
      const seen = await page.evaluate(() => ({
        y: window.scrollY,
        header: document.querySelector('header')!.getBoundingClientRect().top,
      }));
      expect(seen, `at ${width} px`).toEqual({ y: scrolled, header: 0 });
      if (width === 1280)
        expect(
          await page.evaluate(() => document.querySelector('nav')!.getBoundingClientRect().top),
        ).toBeGreaterThanOrEqual(0);
      // The picture once the dialog has faded in.
      await page.waitForFunction(
        () => getComputedStyle(document.querySelector('[data-dialog="confirm"]')!).opacity === '1',
      );
      await page.screenshot({ path: shot(`confirm-scrolled-ru-${width}`) });
      await page.locator('[data-dialog="confirm"] [data-action="cancel"]').click();
      await page.locator('[data-dialog="confirm"]').waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    }
    // The same STIR on a new contractor: "already registered" with a link to the record, no green "found".
    await page.goto(`${portal().url}/admin/contractors/new`);
    await page.locator('[data-field="/stir"] input').first().pressSequentially('301112229');
    const duplicate = page.locator('[data-lookup="duplicate"] a');
    await duplicate.waitFor();
    expect(await duplicate.getAttribute('href')).toBe(`/admin/contractors/${created.id}`);
    await page.locator('[data-field="/stir"] .fui-Field__validationMessage').waitFor();
    expect(await page.locator('[data-lookup="found"]').count()).toBe(0);
    await page.screenshot({ path: shot('duplicate-stir-ru-360') });
    await page.context().close();
  });
});
