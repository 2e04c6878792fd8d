/**
 * A pharmacy appeal moved from CREATED to FINISHED in Debian's Chromium through the
 * transition bar's buttons, by the roles the machine and access.json assign: the regional
 * department head sends it to the region, confirms it and assigns the executor; the executor
 * extends the deadline, continues and finishes. Each sees only the buttons their role and the
 * machine allow; the history tab shows the whole path.
 */
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
const ENTITY = 'pharmacy-appeal';
const def = registry.entities.get(ENTITY)!;
const machine = registry.machines.get(def.manifest.workflow!)!;
const detail = [...registry.screens.values()].find((s) => s.entity === ENTITY && s.kind === 'detail')!;
const PASSWORD = 'correct horse battery';

describe.skipIf(!browserTestsEnabled())('a pharmacy appeal through its status machine in Chromium', () => {
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

  it('goes CREATED → SEND_TO_REGION → BEING_SEEN → PROCCESS → TIME_EXTENDED → PROCCESS → FINISHED by the buttons', async () => {
    const data = createSampler(def.schema, registry.references, createServerAjv())(31, { full: true });
    delete data.executorId;
    const record = await api('POST', `/api${def.manifest.base}/create`, data);
    const id = Number(record.id);
    const region = Number(record.regionId);
    const headId = await user('flow-head', 'department-head', region);
    const executorId = await user('flow-executor', 'executor', region);

    const head = await openAs('flow-head', id);
    expect(await status(head)).toBe('CREATED');
    expect(await offered(head)).toEqual(['ASSIGN_TO_REGION']);
    await perform(head, 'ASSIGN_TO_REGION', 'SEND_TO_REGION');
    expect(await offered(head)).toEqual(['CONFIRM']);
    await perform(head, 'CONFIRM', 'BEING_SEEN');
    await perform(head, 'ASSIGN_EXECUTOR', 'PROCCESS', { executorId });
    // Only the assigned executor may work on it now; the head may still hand it over.
    expect(await offered(head)).toEqual(['ASSIGN_EXECUTOR']);
    await head.context().close();

    const executor = await openAs('flow-executor', id);
    expect(await offered(executor)).toEqual(['EXTEND_DEADLINE', 'FINISH', 'SEND_TO_COURT']);
    await perform(executor, 'EXTEND_DEADLINE', 'TIME_EXTENDED', { newDeadline: '2030-05-17', reason: 'Waiting for the pharmacy’s documents' });
    await perform(executor, 'PROCESS', 'PROCCESS');
    await perform(executor, 'FINISH', 'FINISHED');
    expect(await offered(executor)).toEqual([]);

    await executor.locator('[data-tab="transitions"]').click();
    await executor.locator('[data-region="transition-history"]').waitFor();
    const path = await executor.locator('[data-region="transition-history"] [data-transition]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-transition')}>${e.getAttribute('data-to')}`));
    expect(path).toEqual(['ASSIGN_TO_REGION>SEND_TO_REGION', 'CONFIRM>BEING_SEEN', 'ASSIGN_EXECUTOR>PROCCESS', 'EXTEND_DEADLINE>TIME_EXTENDED', 'PROCESS>PROCCESS', 'FINISH>FINISHED']);
    expect(await executor.locator('[data-region="transition-history"]').innerText()).toContain('Deadline extended');

    const history = await api('GET', `/api${def.manifest.base}/history/${id}`);
    expect((history.list as Array<{ actor: string }>).map((h) => h.actor)).toEqual([...Array(3).fill(String(headId)), ...Array(3).fill(String(executorId))]);
    await executor.context().close();
  });
});
