/**
 * Generated documents in Chromium (issue #19 item 2), one portal and one browser: on a
 * correspondence record's page the admin opens "Create document", picks the letter, and the
 * PDF made on the server is drawn in the preview (pdfjs-dist canvases, not blank) with a
 * download link; the files tab lists the new document; the admins' template screen shows the
 * versions. At 360 px in uzCyrillic the decision is made and previewed the same way.
 * Screenshots at 1280 (ru) and 360 (uzCyrillic) px go to .tmp/screenshots/docgen-*.png.
 * Needs LibreOffice as the contract tests do (skipped with the reason, REQUIRE_LIBREOFFICE=1 fails).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserTestsEnabled, waitForScreen } from '../support/browser.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';
import { libreofficeTestsEnabled } from '../support/libreoffice.ts';

const enabled = browserTestsEnabled() && libreofficeTestsEnabled();

/** Whether the preview's first page has drawn something besides white paper. */
const firstPageDrawn = (page: Page) =>
  page.locator('[data-dialog="pdf-preview"] canvas[data-page="1"]').evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark++;
    return dark;
  });

describe.skipIf(!enabled)('generated documents in Chromium', () => {
  let ctx: StaffBrowser;
  let portal: StaffBrowser['portal'];
  let recordId: number;

  beforeAll(async () => {
    ctx = await openStaffBrowser();
    const { api, admin } = ctx;
    portal = ctx.portal;
    const record = await api(admin, 'POST', '/api/document/create', {
      number: 'ХТ-21/2026',
      date: '2026-03-05',
      type: 'LETTER',
      regionId: 1,
      applicant: 'Каримов Анвар Ботирович',
      summary: 'Нархлар ҳақида мурожаат',
    });
    recordId = record.id as number;
  }, 120_000);
  afterAll(() => ctx?.close());

  /** Creates the document of `kind` from the record page and waits for its preview to be drawn. */
  const createAndPreview = async (page: Page, kind: string) => {
    await page.locator('[data-action="create-document"]').click();
    await page.locator(`[role="menuitem"][data-kind="${kind}"]`).click();
    await page.locator('[data-dialog="pdf-preview"] [data-region="pdf-preview"][data-state="ready"]').waitFor();
    expect(await firstPageDrawn(page)).toBeGreaterThan(500);
    expect(await page.locator('[data-dialog="pdf-preview"] [data-action="download-pdf"]').getAttribute('href')).toMatch(
      /\/api\/file-entity\/get\//,
    );
  };

  it('makes a letter from the record page, previews its PDF and lists it in the files tab (1280, ru)', async () => {
    const page = await ctx.pageAs(`/admin/documents/${recordId}`, 'ru', 1280);
    await waitForScreen(page, '[data-screen="correspondence-detail"]');
    await createAndPreview(page, 'letter');
    await page.screenshot({ path: path.join(SHOTS, 'docgen-preview-ru-1280.png') });
    await page.locator('[data-action="close-preview"]').click();
    await page.locator('[data-tab="files"]').click();
    const made = page.locator('[data-region="generated-documents"] [data-kind="letter"]');
    await made.waitFor();
    expect(await made.innerText()).toContain('Письмо');
    // A PDF among the record's files opens the same preview.
    await made.locator('[data-action="preview-pdf"]').click();
    await page.locator('[data-dialog="pdf-preview"] [data-region="pdf-preview"][data-state="ready"]').waitFor();
    await page.locator('[data-action="close-preview"]').click();
    await page.screenshot({ path: path.join(SHOTS, 'docgen-files-ru-1280.png'), fullPage: true });
    // The admins' screen shows the kinds and their versions.
    await page.goto(`${portal.url}/admin/document-templates`);
    await waitForScreen(page, '[data-screen="document-templates"]');
    await page.locator('[data-entity="correspondence"] [data-kind="letter"] [data-version="1"]').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'docgen-templates-ru-1280.png'), fullPage: true });
    await page.context().close();
  }, 90_000);

  it('makes and previews a decision on a phone (360, uzCyrillic)', async () => {
    const page = await ctx.pageAs(`/admin/documents/${recordId}`, 'uzCyrillic', 360);
    await waitForScreen(page, '[data-screen="correspondence-detail"]');
    await createAndPreview(page, 'decision');
    // The page fits the phone: the canvas is no wider than the dialog.
    const width = await page
      .locator('[data-dialog="pdf-preview"] canvas[data-page="1"]')
      .evaluate((c) => c.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(360);
    await page.screenshot({ path: path.join(SHOTS, 'docgen-preview-uzCyrillic-360.png') });
    await page.locator('[data-action="close-preview"]').click();
    await page.locator('[data-tab="files"]').click();
    await page.locator('[data-region="generated-documents"] [data-kind="decision"]').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'docgen-files-uzCyrillic-360.png'), fullPage: true });
    await page.goto(`${portal.url}/admin/document-templates`);
    await waitForScreen(page, '[data-screen="document-templates"]');
    await page.screenshot({ path: path.join(SHOTS, 'docgen-templates-uzCyrillic-360.png'), fullPage: true });
    await page.context().close();
  }, 90_000);
});
