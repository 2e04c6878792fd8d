/**
 * A document moved through the document machine in Debian's Chromium by the transition bar's
 * buttons, by the roles access.json gives: the department head routes it, reads it and
 * assigns the executor; the executor postpones, resumes and sends the draft for visa; the
 * visa issuer agrees; the executor sends the answer for signature; only the named signer signs.
 * Each sees only the buttons their role, the state and the guards allow.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { payloadSchemaFor } from '../../src/server/workflow/machine.ts';
import { browserTestsEnabled, launchBrowser, startPortal } from '../support/browser.ts';
import { createSampler } from '../support/sample-data.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ENTITY = 'document';
const def = registry.entities.get(ENTITY)!;
const machine = registry.machines.get(def.manifest.workflow!)!;
const detail = [...registry.screens.values()].find((s) => s.entity === ENTITY && s.kind === 'detail')!;
const PASSWORD = 'correct horse battery';
const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');

describe.skipIf(!browserTestsEnabled())('a document through its status machine in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let admin: Record<string, string>;
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${portal.url}${url}`, { method, headers: admin, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const user = async (username: string, role: string, regionId: number) => {
    const created = await api('POST', '/api/portal-user/create', { username, firstName: 'Flow', lastName: role, isOuter: false, canLogin: true, roles: [role], regionId });
    await api('POST', '/api/auth/set-password', { userId: created.id, password: PASSWORD });
    return Number(created.id);
  };

  beforeAll(async () => {
    portal = await startPortal();
    browser = await launchBrowser();
    const signIn = await fetch(`${portal.url}/api/auth-payload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }) });
    admin = { authorization: `Bearer ${((await signIn.json()) as { token: string }).token}`, 'content-type': 'application/json' };
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** A fresh browser session signed in as `username`, on the record's page. */
  const openAs = async (username: string, id: number): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addInitScript(() => localStorage.setItem('portal.locale', JSON.stringify('en')));
    const page = await context.newPage();
    const route = detail.route.replace(':id', String(id));
    await page.goto(`${portal.url}${route}`);
    await page.locator('[data-screen="login"]').waitFor();
    await page.locator('[data-field="/username"] input').fill(username);
    await page.locator('[data-field="/password"] input').fill(PASSWORD);
    await page.locator('[data-action="sign-in"]').click();
    await page.locator(`[data-screen="${detail.id}"] [data-region="transitions"]`).waitFor();
    return page;
  };
  const status = (page: Page) => page.locator('[data-region="transitions"] [data-status]').getAttribute('data-status');
  const offered = async (page: Page) => {
    await page.locator('[data-region="transitions"] [data-event], [data-region="no-events"]').first().waitFor();
    return (await page.locator('[data-region="transitions"] [data-event]').evaluateAll((els) => els.map((e) => e.getAttribute('data-event')))).sort();
  };
  /** Clicks an event's button and agrees (or fills its payload form) and waits for the new status. */
  const perform = async (page: Page, event: string, to: string, payload?: Record<string, unknown>) => {
    const from = await status(page);
    await page.locator(`[data-region="transitions"] [data-event="${event}"]`).click();
    if (payload) {
      const dialog = page.locator(`[data-dialog="transition"][data-event="${event}"]`);
      await dialog.waitFor();
      // The record's own form on the page has fields of the same names: fill the dialog's.
      const schema = payloadSchemaFor(machine, from!, event)!;
      for (const [name, value] of Object.entries(payload)) {
        const format = (schema.properties?.[name] as { format?: string } | undefined)?.format;
        const text = format === 'date' ? String(value).split('-').reverse().join('.') : String(value);
        const input = dialog.locator(`[data-field="/${name}"]`).locator('input:not([type=hidden]), textarea').first();
        await input.fill(text);
        await input.blur();
      }
      await dialog.locator('[data-action="send"]').click();
    } else {
      await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    }
    await page.locator(`[data-region="transitions"] [data-status="${to}"]`).waitFor();
  };

  it('goes CREATED → RECEIVED → SEEN → BEING_SEEN → SUSPENDED → BEING_SEEN → REVIEW_FINISHED → VISA_APPROVED → FOR_ACCEPTED_DXA → ACCEPTED by the buttons', async () => {
    const data = createSampler(def.schema, registry.references, createServerAjv())(41, { full: false, minimal: true });
    const region = Number(data.regionId);
    const headId = await user('doc-head', 'department-head', region);
    const executorId = await user('doc-executor', 'executor', region);
    const visaId = await user('doc-visa', 'visa-issuer', region);
    const signerId = await user('doc-signer', 'signer', region);
    await user('doc-other-signer', 'signer', region);
    const record = await api('POST', `/api${def.manifest.base}/create`, { ...data, summary: 'Request for prior consent to a merger', signerId });
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
    expect(await offered(executorAgain)).toEqual(['MARK_INCOMPLETE', 'MARK_NOT_BELONG', 'MARK_NO_PERMIT_REQUIRED', 'REJECT', 'SEND_FOR_SIGNATURE']);
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
    const path_ = await signer.locator('[data-region="transition-history"] [data-transition]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-transition')}>${e.getAttribute('data-to')}`));
    expect(path_).toEqual(['SEND_TO_DEPARTMENT_HEAD>RECEIVED', 'MARK_SEEN>SEEN', 'ASSIGN_EXECUTOR>BEING_SEEN', 'DELAY>SUSPENDED', 'RESUME>BEING_SEEN', 'SEND_FOR_VISA>REVIEW_FINISHED', 'AGREE>VISA_APPROVED', 'SEND_FOR_SIGNATURE>FOR_ACCEPTED_DXA', 'SIGN>ACCEPTED']);
    await signer.screenshot({ path: path.join(SHOTS, 'document-history.png'), fullPage: true });
    await signer.context().close();

    const stored = await api('GET', `/api${def.manifest.base}/get/${id}`);
    expect(stored).toMatchObject({ status: 'ACCEPTED', department: 'Consumer protection', routedTo: 'DEPARTMENT_HEAD', executorId, visaIssuerId: visaId, signerId, suspensionReason: 'Waiting for the tax committee' });
    expect(stored.suspendedUntil).toBeUndefined();
    expect(stored.visaDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(stored.signedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const history = await api('GET', `/api${def.manifest.base}/history/${id}`);
    expect((history.list as Array<{ actor: string }>).map((h) => h.actor)).toEqual([
      ...Array(3).fill(String(headId)), ...Array(3).fill(String(executorId)), String(visaId), String(executorId), String(signerId),
    ]);
  });
});
