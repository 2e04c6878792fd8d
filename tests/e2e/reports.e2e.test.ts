/**
 * Reports in Chromium (issue #19 item 1), one portal and one browser: the receiving
 * department's head opens Reports → Incoming (the reports sent to their department only),
 * selects two reports, merges them and lands on the consolidated report, whose rows show the
 * sums and whose sources link back; the Reports menu lists the four boxes; a new report from a
 * template shows the template's rows after saving. Screenshots at 1280 and 360 px in ru and
 * uzCyrillic (.tmp/screenshots/reports-*).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { browserTestsEnabled, waitForScreen } from '../support/browser.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';
import { axeProblems } from '../support/public-browser.ts';

const PASSWORD = 'reports-e2e-pass-1';

type Source = { id: number; rows: Array<{ code: string; value?: number }> };

describe.skipIf(!browserTestsEnabled())('reports in Chromium', () => {
  let ctx: StaffBrowser;
  let api: StaffBrowser['api'];
  let admin: string;
  let sources: Source[];
  let elsewhere: number;
  let mergedId: number;

  const pageAs = (route: string, locale = 'en', width = 1280) =>
    ctx.pageAs(route, locale, width, { username: 'e2e-receiver', password: PASSWORD });
  /** The ids of the rows the list shows (a row may be drawn in more than one container). */
  const rowIds = async (page: Page): Promise<number[]> => [
    ...new Set(
      (
        await page
          .locator('[data-grid="report"] [role="row"][row-id]')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('row-id')))
      ).map(Number),
    ),
  ];
  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

  beforeAll(async () => {
    ctx = await openStaffBrowser();
    ({ api, admin } = ctx);
    const units = (await api(admin, 'POST', '/api/department/list-search', { itemsPerPage: 3, sortBy: ['id'] }))
      .list as Array<{ id: number }>;
    const [central, regional, other] = units.map((u) => u.id);
    const user = await api(admin, 'POST', '/api/portal-user/create', {
      username: 'e2e-receiver',
      firstName: 'Test',
      lastName: 'Receiver',
      isOuter: false,
      canLogin: true,
      roles: ['department-head'],
    });
    await api(admin, 'POST', '/api/auth/set-password', { userId: user.id, password: PASSWORD });
    await api(admin, 'POST', '/api/employee/create', {
      lastName: 'Receiver',
      firstName: 'Test',
      departmentId: central,
      canRegister: false,
      canLogin: true,
      userId: user.id,
    });
    const template = (
      (await api(admin, 'POST', '/api/report-template/list-search', {})).list as Array<{ id: number }>
    )[0]!;
    const report = (title: string, from: number, values: number[]) =>
      api(admin, 'POST', '/api/report/create', {
        title,
        templateId: template.id,
        periodKind: 'SIX_MONTHS',
        year: 2025,
        fromDepartmentId: from,
        toDepartmentId: central,
      }).then(async (made) => {
        // Values on the template's rows: numbers on the number rows, a remark on the text row.
        const rows = (made.rows as Array<{ code: string; kind: string }>).map((r, i) =>
          r.kind === 'number' ? { ...r, value: values[i] } : { ...r, text: `Remark of ${title}` },
        );
        return (await api(admin, 'PUT', `/api/report/update/${made.id}`, { ...made, rows })) as unknown as Source;
      });
    sources = [
      await report('Region A', regional!, [120, 95, 1500.5]),
      await report('Region B', other!, [30, 25, 499.5]),
    ];
    // Sent to another department: not in this receiver's incoming box.
    elsewhere = (
      await api(admin, 'POST', '/api/report/create', {
        title: 'Not for us',
        templateId: template.id,
        periodKind: 'ANNUAL',
        year: 2025,
        fromDepartmentId: central,
        toDepartmentId: regional,
      })
    ).id as number;
  }, 120_000);
  afterAll(() => ctx?.close());

  it('the incoming box lists what reached the department; two selected reports merge into one with the sums', async () => {
    const page = await pageAs('/admin/reports/incoming');
    await waitForScreen(page, 'section[data-screen="report-incoming"]');
    // The Reports menu holds the four boxes.
    for (const route of ['incoming', 'outgoing', 'consolidated'])
      expect(await page.locator(`a[href="/admin/reports/${route}"]`).count()).toBeGreaterThan(0);
    expect(await page.locator('a[href="/admin/report-templates"]').count()).toBeGreaterThan(0);
    await page.locator('[data-grid="report"] [role="row"][row-id]').first().waitFor();
    expect((await rowIds(page)).sort((a, b) => a - b)).toEqual(sources.map((s) => s.id).sort((a, b) => a - b));
    expect(await rowIds(page)).not.toContain(elsewhere);
    // The box's own filter is fixed: not offered among the filters.
    expect(await page.getByText('Received by my department').count()).toBe(0);
    // One row selected: the spec's message, nothing merged.
    const select = (id: number) =>
      page.locator(`[data-grid="report"] [role="row"][row-id="${id}"] .ag-selection-checkbox input`).first().check();
    await select(sources[0]!.id);
    await page.locator('[data-action="merge"]').click();
    await page.locator('[data-state="merge-hint"]').getByText('At least 2 reports must be selected to merge').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'reports-incoming-en-1280.png'), fullPage: true });
    await select(sources[1]!.id);
    await page.locator('[data-action="merge"]').click();
    await waitForScreen(page, 'div[data-screen="report-detail"][data-record]');
    mergedId = Number(new URL(page.url()).pathname.split('/').pop());
    const merged = (await api(admin, 'GET', `/api/report/get/${mergedId}`)) as {
      rows: Array<{ code: string; value?: number }>;
    };
    expect(merged).toMatchObject({ consolidated: true, mergedFrom: sources.map((s) => s.id).sort((a, b) => a - b) });
    // The sums the page shows are those computed here from the sources.
    const text = await page.locator('[data-screen="report-detail"]').innerText();
    for (const code of ['1', '2', '3']) {
      const sum = sources.reduce((t, s) => t + (s.rows.find((r) => r.code === code)?.value ?? 0), 0);
      expect(merged.rows.find((r) => r.code === code)?.value).toBe(sum);
    }
    expect(text).toContain('150');
    expect(text).toContain('120');
    expect(text).toMatch(/2[\s\u00a0]?000/);
    expect(text).toContain('Remark of Region A');
    // Its sources link to their pages.
    const links = page.locator('a[data-entity-ref="report"]');
    await links.first().waitFor();
    expect(await links.count()).toBe(2);
    expect(await links.first().getAttribute('href')).toBe(`/admin/reports/${sources[0]!.id}`);
    expect(await axeProblems(page, ['[data-screen="report-detail"]'])).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'reports-consolidated-en-1280.png'), fullPage: true });
    await page.goto(`${ctx.portal.url}/admin/reports/consolidated`);
    await waitForScreen(page, 'section[data-screen="report-consolidated"]');
    await page.locator(`[data-grid="report"] [role="row"][row-id="${mergedId}"]`).first().waitFor();
    expect(await rowIds(page)).toEqual([mergedId]);
    await page.context().close();
  });

  it('the boxes and the consolidated report at 1280 and 360 px in ru and uzCyrillic', async () => {
    for (const locale of ['ru', 'uzCyrillic']) {
      for (const width of [1280, 360]) {
        const page = await pageAs('/admin/reports/incoming', locale, width);
        await waitForScreen(page, 'section[data-screen="report-incoming"]');
        await page.locator('[data-grid="report"] [role="row"][row-id]').first().waitFor();
        expect(await sideways(page), `${locale} ${width} incoming`).toBe(false);
        await page.screenshot({ path: path.join(SHOTS, `reports-incoming-${locale}-${width}.png`), fullPage: true });
        await page.goto(`${ctx.portal.url}/admin/reports/${mergedId}`);
        await waitForScreen(page, 'div[data-screen="report-detail"][data-record]');
        await page.locator('a[data-entity-ref="report"]').first().waitFor();
        expect(await sideways(page), `${locale} ${width} consolidated`).toBe(false);
        await page.screenshot({
          path: path.join(SHOTS, `reports-consolidated-${locale}-${width}.png`),
          fullPage: true,
        });
        if (width === 1280) {
          await page.goto(`${ctx.portal.url}/admin/reports/new`);
          await waitForScreen(page, '[data-screen="report-new"] form');
          await page.screenshot({ path: path.join(SHOTS, `reports-new-${locale}-${width}.png`), fullPage: true });
        }
        await page.context().close();
      }
    }
  });
});
