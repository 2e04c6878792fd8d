/**
 * The dashboard engine in Debian's Chromium over a real public dashboard (/fair-price): the
 * filter values live in the address — a change replaces the parameter, a reload and a shared
 * link show the same figures —; the table and the chart's table view download as XLSX through
 * /api/dashboards/{screen}/{panel}/export with the values and the language; on a phone nothing
 * sticks out sideways. One portal, one browser; screenshots at 1280 and 360 px in ru and
 * uzCyrillic go to .tmp/screenshots. (Periods, tabs, tiles, comparison, drill-down, group rows
 * and column groups are covered by the component tests under src/engine/dashboard.)
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { browserTestsEnabled } from '../support/browser.ts';
import { noOverflow, SHOTS, usePublicPortal } from '../support/public-browser.ts';

const FIRST = '[data-panel="prices"] [data-row="0"] [data-cell="minPrice"]';

describe.skipIf(!browserTestsEnabled())('dashboard engine in Chromium', () => {
  const { open, portal } = usePublicPortal();

  it('keeps the filters in the address, survives a reload and a shared link, and downloads each table', async () => {
    const page = await open('/fair-price', 1280, 'ru');
    await page.waitForSelector(`${FIRST}`);
    const market = page.locator('[data-filter="marketTypeId"]');
    expect(await market.inputValue()).toBe('1');
    const before = await page.locator(FIRST).innerText();
    await market.selectOption('2');
    await expect.poll(() => new URL(page.url()).searchParams.get('marketTypeId')).toBe('2');
    await expect.poll(() => page.locator(FIRST).innerText()).not.toBe(before);
    const changed = await page.locator(FIRST).innerText();
    // A change replaces the address rather than adding a step to the history.
    const length = await page.evaluate(() => history.length);

    await page.reload();
    await page.waitForSelector(FIRST);
    expect(await page.locator('[data-filter="marketTypeId"]').inputValue()).toBe('2');
    await expect.poll(() => page.locator(FIRST).innerText()).toBe(changed);
    expect(await page.evaluate(() => history.length)).toBe(length);

    const download = page.locator('[data-panel="prices"] [data-action="export"]');
    const href = (await download.getAttribute('href'))!;
    expect(await download.getAttribute('download')).not.toBeNull();
    const url = new URL(href, portal().url);
    expect(url.pathname).toBe('/api/dashboards/fair-price/prices/export');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ marketTypeId: '2', lang: 'ru' });
    const xlsx = await page.request.get(url.toString());
    expect(xlsx.status()).toBe(200);
    expect(xlsx.headers()['content-type']).toContain('spreadsheetml');
    expect((await xlsx.body()).subarray(0, 2).toString()).toBe('PK');

    await page.locator('[data-panel="trend"] summary').click();
    const chartHref = await page.locator('[data-panel="trend"] [data-action="export"]').getAttribute('href');
    expect(chartHref).toMatch(/^\/api\/dashboards\/fair-price\/trend\/export\?.*marketTypeId=2.*&lang=ru$/);
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-engine-ru-1280.png'), fullPage: true });
    await page.context().close();
  });

  it('a shared link on a phone shows the same dashboard in its language, nothing sideways', async () => {
    const page = await open('/fair-price?marketTypeId=2&regionId=3', 360, 'uzCyrillic');
    await page.waitForSelector(FIRST);
    expect(await page.locator('[data-filter="marketTypeId"]').inputValue()).toBe('2');
    expect(await page.locator('[data-filter="regionId"]').inputValue()).toBe('3');
    const href = await page.locator('[data-panel="prices"] [data-action="export"]').getAttribute('href');
    expect(href).toContain('regionId=3');
    expect(href).toMatch(/&lang=uzCyrillic$/);
    await page.waitForSelector('[data-panel="trend"] [data-chart="line"] svg');
    await noOverflow(page);
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-engine-uzCyrillic-360.png'), fullPage: true });
    await page.context().close();
  });
});
