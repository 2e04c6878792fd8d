/**
 * A document moved through the document machine in Debian's Chromium by the transition bar's
 * buttons, by the roles access.json gives: the department head routes it, reads it and
 * assigns the executor; the executor postpones, resumes and sends the draft for visa; the
 * visa issuer agrees; the executor sends the answer for signature; only the named signer signs.
 * Each sees only the buttons their role, the state and the guards allow. Then the document's
 * Tree tab (its chain, another region's document restricted) is followed to a child, and a
 * letter is registered from an uploaded file on the Upload letter screen (ru and uzCyrillic,
 * 1280 and 360 px).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { browserTestsEnabled } from '../support/browser.ts';
import { registry, workflowInBrowser } from '../support/workflow-browser.ts';
import { createSampler } from '../support/sample-data.ts';
import { fillForm } from '../support/fill-form.ts';

const ENTITY = 'correspondence';
const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');

describe.skipIf(!browserTestsEnabled())('a document through its status machine in Chromium', () => {
  const { def, machine, api, user, openAs, status, offered, perform } = workflowInBrowser(ENTITY);
  it("shows a document's chain on its Tree tab, follows a child, and registers a letter from an uploaded file", async () => {
    const base = `/api${def.manifest.base}`;
    const doc = async (number: string, regionId: number, more: Record<string, unknown> = {}) =>
      Number(
        (await api('POST', `${base}/create`, { number, date: '2026-05-04', type: 'LETTER', regionId, ...more })).id,
      );
    await user('doc-clerk', 'employee', 1);
    const root = await doc('TREE-1', 1, { summary: 'A request for an explanation' });
    const reply = await doc('TREE-1/R', 1, { parentId: root, linkKind: 'REPLY' });
    await doc('TREE-1/X', 2, { parentId: root, linkKind: 'CHILD' });
    const resolution = await doc('TREE-1/R/1', 1, { parentId: reply, linkKind: 'RESOLUTION' });

    const page = await openAs('doc-clerk', root, { locale: 'ru' });
    await page.locator('[data-tab="chain"]').click();
    const chain = page.locator('[data-region="chain"]');
    await chain.locator('[data-chain-node]').first().waitFor();
    expect(
      await chain.locator('[data-chain-node]').evaluateAll((els) => els.map((e) => e.getAttribute('data-chain-node'))),
    ).toEqual([String(root), String(reply), String(resolution), 'restricted']);
    expect(await chain.locator('[data-current] [aria-current="page"]').textContent()).toBe('TREE-1');
    expect(await chain.locator(`[data-chain-node="${reply}"] > div`).textContent()).toContain('Ответ');
    // Keyboard: the first link of the tree is reached by Tab from the create buttons, and opens the reply.
    await page.locator('[data-action="chain-create-RESOLUTION"]').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('TREE-1/R');
    await page.screenshot({ path: path.join(SHOTS, 'docflow-tree-ru-1280.png'), fullPage: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/admin/documents/${reply}`);
    await page.locator('[data-tab="chain"]').click();
    await chain.locator(`[data-chain-node="${reply}"][data-current]`).waitFor();
    // "Create a reply" opens the new document's form with the parent filled in.
    await page.locator('[data-action="chain-create-REPLY"]').click();
    await page.waitForURL(`**/admin/documents/new?parentId=${reply}&linkKind=REPLY`);
    await page.context().close();

    const phone = await openAs('doc-clerk', resolution, { locale: 'uzCyrillic', width: 360 });
    await phone.locator('[data-tab="chain"]').click();
    await phone.locator('[data-region="chain"] [data-chain-node]').first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phone.screenshot({ path: path.join(SHOTS, 'docflow-tree-uzCyrillic-360.png'), fullPage: true });

    // The Upload letter screen: the file, number, date, type and region in one step.
    await phone.goto(new URL('/admin/documents-upload', phone.url()).href);
    await phone.locator('[data-screen="correspondence-upload"] [data-field="/number"]').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phone.screenshot({ path: path.join(SHOTS, 'docflow-upload-uzCyrillic-360.png'), fullPage: true });
    await phone.setViewportSize({ width: 1280, height: 900 });
    await phone.locator('[data-action="upload"]').click();
    await phone.locator('[data-field="/file"]').setInputFiles({
      name: 'letter-e2e.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
    });
    await fillForm(phone, def.schema, { number: 'UP-E2E-1', date: '2026-05-06', type: 'LETTER', regionId: 1 });
    await phone.screenshot({ path: path.join(SHOTS, 'docflow-upload-uzCyrillic-1280.png'), fullPage: true });
    await phone.locator('[data-action="upload"]').click();
    await phone.locator('[data-screen="correspondence-detail"]').waitFor();
    const found = await api('POST', `${base}/list-search?keyword=UP-E2E-1`, {});
    expect(found.total).toBe(1);
    const uploaded = (found.list as Array<{ id: number; files: string[]; type: string }>)[0]!;
    expect(uploaded.type).toBe('LETTER');
    expect(uploaded.files).toHaveLength(1);
    expect(phone.url()).toContain(`/admin/documents/${uploaded.id}`);
    await phone.context().close();
  });

  it('goes CREATED → RECEIVED → SEEN → BEING_SEEN → SUSPENDED → BEING_SEEN → REVIEW_FINISHED → VISA_APPROVED → FOR_ACCEPTED_DXA → ACCEPTED by the buttons', async () => {
    const data = createSampler(def.schema, registry.references, createServerAjv())(41, { full: false, minimal: true });
    const region = Number(data.regionId);
    const headId = await user('doc-head', 'department-head', region);
    const executorId = await user('doc-executor', 'executor', region);
    const visaId = await user('doc-visa', 'visa-issuer', region);
    const signerId = await user('doc-signer', 'signer', region);
    await user('doc-other-signer', 'signer', region);
    const record = await api('POST', `/api${def.manifest.base}/create`, {
      ...data,
      summary: 'Request for prior consent to a merger',
      signerId,
    });
    const id = Number(record.id);

    const head = await openAs('doc-head', id);
    expect(await status(head)).toBe('CREATED');
    expect(await offered(head)).toEqual(['SEND_TO_COMMISSION_CHAIR', 'SEND_TO_DEPARTMENT_HEAD', 'SEND_TO_REGION']);
    // The department is a unit of the organisation structure, picked by the record search.
    const departmentId = Number(
      ((await api('POST', '/api/department/list-search', {})).list as Array<{ id: number }>)[0]!.id,
    );
    await perform(head, 'SEND_TO_DEPARTMENT_HEAD', 'RECEIVED', { departmentId });
    expect(await offered(head)).toEqual(['MARK_SEEN', 'RETURN_TO_DRAFT']);
    await perform(head, 'MARK_SEEN', 'SEEN');
    await perform(head, 'ASSIGN_EXECUTOR', 'BEING_SEEN', { executorId });
    // The review belongs to the assigned executor now; the head may hand it over or mark it overdue.
    expect(await offered(head)).toEqual(['ASSIGN_EXECUTOR', 'MARK_EXPIRED']);
    await head.context().close();

    const executor = await openAs('doc-executor', id);
    expect(await offered(executor)).toEqual(['DELAY', 'EXTEND_DEADLINE', 'FINISH_WORK', 'SEND_FOR_VISA', 'SUSPEND']);
    await perform(executor, 'DELAY', 'SUSPENDED', { until: '2030-05-17', reason: 'Waiting for the tax committee' });
    await perform(executor, 'RESUME', 'BEING_SEEN');
    await perform(executor, 'SEND_FOR_VISA', 'REVIEW_FINISHED');
    expect(await offered(executor)).toEqual([]);
    await executor.context().close();

    const visa = await openAs('doc-visa', id);
    expect(await offered(visa)).toEqual(['AGREE', 'RETURN_TO_DRAFT']);
    await perform(visa, 'AGREE', 'VISA_APPROVED');
    await visa.context().close();

    const executorAgain = await openAs('doc-executor', id);
    expect(await offered(executorAgain)).toEqual([
      'MARK_INCOMPLETE',
      'MARK_NOT_BELONG',
      'MARK_NO_PERMIT_REQUIRED',
      'REJECT',
      'SEND_FOR_SIGNATURE',
    ]);
    await perform(executorAgain, 'SEND_FOR_SIGNATURE', 'FOR_ACCEPTED_DXA');
    await executorAgain.context().close();

    // Another signer may return the draft but not sign: only the document's signer signs.
    const other = await openAs('doc-other-signer', id);
    expect(await offered(other)).toEqual(['RETURN_TO_DRAFT']);
    await other.context().close();

    const signer = await openAs('doc-signer', id);
    expect(await offered(signer)).toEqual(['RETURN_TO_DRAFT', 'SIGN']);
    await perform(signer, 'SIGN', 'ACCEPTED');
    expect(await offered(signer)).toEqual([]);
    await signer.screenshot({ path: path.join(SHOTS, 'document-accepted.png'), fullPage: true });

    await signer.locator('[data-tab="transitions"]').click();
    await signer.locator('[data-region="transition-history"]').waitFor();
    const path_ = await signer
      .locator('[data-region="transition-history"] [data-transition]')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-transition')}>${e.getAttribute('data-to')}`));
    expect(path_).toEqual([
      'SEND_TO_DEPARTMENT_HEAD>RECEIVED',
      'MARK_SEEN>SEEN',
      'ASSIGN_EXECUTOR>BEING_SEEN',
      'DELAY>SUSPENDED',
      'RESUME>BEING_SEEN',
      'SEND_FOR_VISA>REVIEW_FINISHED',
      'AGREE>VISA_APPROVED',
      'SEND_FOR_SIGNATURE>FOR_ACCEPTED_DXA',
      'SIGN>ACCEPTED',
    ]);
    await signer.screenshot({ path: path.join(SHOTS, 'document-history.png'), fullPage: true });
    await signer.context().close();

    const stored = await api('GET', `/api${def.manifest.base}/get/${id}`);
    expect(stored).toMatchObject({
      status: 'ACCEPTED',
      departmentId,
      routedTo: 'DEPARTMENT_HEAD',
      executorId,
      visaIssuerId: visaId,
      signerId,
      suspensionReason: 'Waiting for the tax committee',
    });
    expect(stored.suspendedUntil).toBeUndefined();
    expect(stored.visaDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(stored.signedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const history = await api('GET', `/api${def.manifest.base}/history/${id}`);
    expect((history.list as Array<{ actor: string }>).map((h) => h.actor)).toEqual([
      ...Array(3).fill(String(headId)),
      ...Array(3).fill(String(executorId)),
      String(visaId),
      String(executorId),
      String(signerId),
    ]);

    // The list's department strip: the unit with its count; following it filters the list to that count.
    const list = await openAs('doc-head', id, { locale: 'ru' });
    await list.goto(new URL('/admin/documents', list.url()).href);
    const facet = list.locator(`[data-facet="departmentIds"] [data-value="${departmentId}"]`);
    await facet.locator('a, button').first().waitFor();
    const count = Number(await facet.locator('[data-count]').textContent());
    expect(count).toBeGreaterThanOrEqual(1);
    await list
      .locator('[data-facet="departmentIds"]')
      .screenshot({ path: path.join(SHOTS, 'docflow2-facets-ru-1280.png') });
    await facet.locator('a, button').first().click();
    await list.waitForURL(`**/admin/documents?*departmentIds=${departmentId}*`);
    await facet.locator('[aria-current="true"]').waitFor();
    await list.screenshot({ path: path.join(SHOTS, 'docflow2-list-ru-1280.png'), fullPage: true });
    await list.context().close();
    const phone = await openAs('doc-head', id, { locale: 'uzCyrillic', width: 360 });
    await phone.goto(new URL('/admin/documents', phone.url()).href);
    await phone.locator(`[data-facet="departmentIds"] [data-value="${departmentId}"]`).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phone.screenshot({ path: path.join(SHOTS, 'docflow2-list-uzCyrillic-360.png'), fullPage: true });
    await phone.context().close();
  });
});
