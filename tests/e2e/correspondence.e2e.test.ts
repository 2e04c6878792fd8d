/**
 * A document moved through the document machine in Debian's Chromium by the transition bar's
 * buttons, by the roles access.json gives: the department head routes it, reads it and
 * assigns the executor; the executor postpones, resumes and sends the draft for visa; the
 * visa issuer agrees; the executor sends the answer for signature; only the named signer signs.
 * Each sees only the buttons their role, the state and the guards allow.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { browserTestsEnabled } from '../support/browser.ts';
import { registry, workflowInBrowser } from '../support/workflow-browser.ts';
import { createSampler } from '../support/sample-data.ts';

const ENTITY = 'correspondence';
const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');

describe.skipIf(!browserTestsEnabled())('a document through its status machine in Chromium', () => {
  const { def, machine, api, user, openAs, status, offered, perform } = workflowInBrowser(ENTITY);
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
    await perform(head, 'SEND_TO_DEPARTMENT_HEAD', 'RECEIVED', { department: 'Consumer protection' });
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
      department: 'Consumer protection',
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
  });
});
