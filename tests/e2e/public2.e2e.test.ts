/**
 * The public price, lookup and statistics pages in Debian's Chromium, at 1280 and 360 px:
 * each renders from its definition with the seeded sample rows, has no horizontal overflow on
 * a phone, works by keyboard where there is input, answers valid and invalid input, and has no
 * serious or critical axe-core violation. Screenshots of /fair-price and /fair-price-stations
 * in the four languages at 360 px go to .tmp/screenshots.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { browserTestsEnabled } from '../support/browser.ts';
import { axeProblems, noOverflow, SHOTS, usePublicPortal } from '../support/public-browser.ts';

const WIDTHS = [1280, 360];

describe.skipIf(!browserTestsEnabled())('public pages (prices, lookups, visitors) in Chromium', () => {
  const { open, portal: running } = usePublicPortal();

  for (const width of WIDTHS) {
    it(`/fair-price at ${width} px: prices per good, a market-type filter, a chart`, async () => {
      const page = await open('/fair-price', width);
      await page.waitForSelector('[data-panel="prices"] [data-row]');
      expect(await page.locator('[data-panel="prices"] [data-row]').count()).toBeGreaterThan(20);
      const firstBefore = await page.locator('[data-panel="prices"] [data-row="0"] [data-cell="minPrice"]').innerText();
      // Keyboard: focus the market-type select and pick the next market type.
      await page.focus('[data-filter="marketTypeId"]');
      await page.keyboard.press('ArrowDown');
      await expect
        .poll(() => page.locator('[data-panel="prices"] [data-row="0"] [data-cell="minPrice"]').innerText())
        .not.toBe(firstBefore);
      await page.waitForSelector('[data-panel="trend"] [data-chart="line"] svg');
      await noOverflow(page);
      expect(await axeProblems(page)).toEqual([]);
      await page.context().close();
    });

    it(`/fair-price-stations at ${width} px: averages per fuel type, station list filtered by region, chart by day`, async () => {
      const page = await open('/fair-price-stations', width);
      await page.waitForSelector('[data-panel="average"] [data-row]');
      expect(await page.locator('[data-panel="average"] [data-row]').count()).toBe(8);
      await page.selectOption('[data-filter="regionId"]', '9');
      // Between the old list and the new one the panel may be empty for a moment; wait for a non-empty list in Samarqand.
      await expect
        .poll(async () => {
          const addresses = await page.locator('[data-panel="stations"] [data-cell="address"]').allInnerTexts();
          return addresses.length > 0 && addresses.every((a) => a.startsWith('Samarqand'));
        })
        .toBe(true);
      expect(await page.locator('[data-panel="stations"] [data-row]').count()).toBeGreaterThan(0);
      await page.selectOption('[data-filter="bucket"]', 'day');
      await page.waitForSelector('[data-panel="trend"] [data-chart="line"] svg');
      await noOverflow(page);
      expect(await axeProblems(page)).toEqual([]);
      await page.context().close();
    });

    it(`/product-services at ${width} px: found by barcode, "not registered" for an unknown MXIK, refused when malformed`, async () => {
      const page = await open('/product-services', width);
      await page.click('[data-tab="barcode"]');
      await page.fill('[data-field="/barcode"] input', '4780001230018');
      await page.keyboard.press('Enter');
      await expect
        .poll(() =>
          page
            .locator('[data-result-field="/name"]')
            .first()
            .innerText()
            .catch(() => ''),
        )
        .toContain('600 g');
      await page.click('[data-tab="mxik"]');
      await page.fill('[data-field="/mxikCode"] input', '99999999999999999');
      await page.click('[data-action="search"]');
      await expect
        .poll(() => page.locator('[data-region="result"]').innerText())
        .toContain('not registered in the national classifier');
      await page.fill('[data-field="/mxikCode"] input', '123');
      await page.click('[data-action="search"]');
      await expect.poll(() => page.locator('[data-field="/mxikCode"]').innerText()).toMatch(/\S/);
      expect(await page.locator('[data-region="result"] [data-row]').count()).toBe(0);
      await noOverflow(page);
      expect(await axeProblems(page)).toEqual([]);
      await page.context().close();
    });

    it(`/visit-stats at ${width} px: this month's bars, an empty month says so, back button`, async () => {
      const page = await open('/visit-stats', width);
      await page.waitForSelector('[data-panel="days"] [data-chart="bar"] svg');
      await page.fill('[data-filter="month"]', '2020-01');
      await expect
        .poll(() =>
          page
            .locator('[data-panel="days"] [data-state="empty"]')
            .innerText()
            .catch(() => ''),
        )
        .toContain('No data for the selected month');
      expect(await page.locator('[data-action="back"]').count()).toBe(1);
      await noOverflow(page);
      expect(await axeProblems(page)).toEqual([]);
      await page.context().close();
    });

    it(`/open-data at ${width} px: the catalogue with working CSV and JSON links`, async () => {
      const page = await open('/open-data', width);
      await page.waitForSelector('[data-panel="datasets"] [data-row]');
      expect(await page.locator('[data-panel="datasets"] [data-row]').count()).toBe(28);
      const href = await page.locator('[data-row="0"] [data-cell="csvUrl"] a').getAttribute('href');
      const csv = await page.request.get(`${running().url}${href}`);
      expect(csv.status()).toBe(200);
      expect((await csv.text()).split('\r\n')[0]).toContain('priceSom');
      // The last dataset's JSON link, as a visitor would follow it: rows of the live table.
      const jsonHref = await page.locator('[data-row="27"] [data-cell="jsonUrl"] a').getAttribute('href');
      expect(jsonHref).toBe('/api/open-data/2-009-0028/data.json');
      const json = await page.request.get(`${running().url}${jsonHref}`);
      expect(json.status()).toBe(200);
      expect(((await json.json()) as unknown[]).length).toBeGreaterThan(0);
      await noOverflow(page);
      expect(await axeProblems(page)).toEqual([]);
      await page.context().close();
    });

    it(`/faq at ${width} px: the four categories`, async () => {
      const page = await open('/faq', width);
      await page.waitForSelector('[data-heading]');
      expect(await page.locator('[data-heading]').allInnerTexts()).toEqual([
        'Social and financial',
        'Advertising',
        'Trade and tourism',
        'Housing and utilities',
      ]);
      expect(await page.locator('[data-screen="faq"]').innerText()).toContain('14 days');
      await noOverflow(page);
      expect(await axeProblems(page)).toEqual([]);
      await page.context().close();
    });

    it(`/statistics-prices at ${width} px: average per region and by month`, async () => {
      const page = await open('/statistics-prices', width);
      await page.waitForSelector('[data-panel="regions"] [data-row]');
      expect(await page.locator('[data-panel="regions"] [data-row]').count()).toBe(14);
      await page.waitForSelector('[data-panel="trend"] [data-chart="bar"] svg');
      await noOverflow(page);
      expect(await axeProblems(page)).toEqual([]);
      await page.context().close();
    });

    for (const route of ['/tovar-mahsulot', '/ish-xizmatlar', '/online-report']) {
      it(`${route} at ${width} px renders without serious accessibility problems`, async () => {
        const page = await open(route, width);
        await page.waitForSelector('[data-screen]');
        await page.waitForTimeout(300);
        await noOverflow(page);
        expect(await axeProblems(page)).toEqual([]);
        await page.context().close();
      });
    }
  }

  it('counts one visit per browser session', async () => {
    const before = (await running().app.inject({ method: 'GET', url: '/api/visit/current-date-stats' })).json()
      .visits as number;
    const page = await open('/fair-price', 1280);
    await page.waitForSelector('[data-screen]');
    await expect
      .poll(
        async () => (await running().app.inject({ method: 'GET', url: '/api/visit/current-date-stats' })).json().visits,
      )
      .toBe(before + 1);
    await page.goto(`${running().url}/visit-stats`);
    await page.waitForSelector('[data-panel="days"] svg');
    expect((await running().app.inject({ method: 'GET', url: '/api/visit/current-date-stats' })).json().visits).toBe(
      before + 1,
    );
    await page.context().close();
  });

  it('screenshots of /open-data in four languages at 360 px', async () => {
    for (const locale of ['uz', 'uzCyrillic', 'ru', 'en']) {
      const page = await open('/open-data', 360, locale);
      await page.waitForSelector('[data-panel="datasets"] [data-row]');
      expect(await page.locator('h1').innerText()).not.toMatch(/^screen\./);
      expect(await page.locator('[data-panel="datasets"]').innerText()).not.toMatch(/openData\.2-009/);
      await page.screenshot({ path: path.join(SHOTS, `open-data-${locale}-360.png`), fullPage: false });
      await page.context().close();
    }
  });

  it('screenshots of /fair-price and /fair-price-stations in four languages at 360 px', async () => {
    for (const route of ['/fair-price', '/fair-price-stations']) {
      for (const locale of ['uz', 'uzCyrillic', 'ru', 'en']) {
        const page = await open(route, 360, locale);
        await page.waitForSelector('[data-chart] svg');
        expect(await page.locator('h1').innerText()).not.toMatch(/^screen\./);
        await page.screenshot({ path: path.join(SHOTS, `${route.slice(1)}-${locale}-360.png`), fullPage: false });
        await page
          .locator('[data-panel="trend"]')
          .screenshot({ path: path.join(SHOTS, `${route.slice(1)}-${locale}-360-chart.png`) });
        await page.context().close();
      }
    }
  });
});
