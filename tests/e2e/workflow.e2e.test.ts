/**
 * A pharmacy appeal moved from CREATED to FINISHED in Debian's Chromium through the
 * transition bar's buttons, by the roles the machine and access.json assign: the regional
 * department head sends it to the region, confirms it and assigns the executor (chosen by name
 * with the staff picker, shown by name on the page); the executor
 * extends the deadline, continues and finishes. Each sees only the buttons their role and the
 * machine allow; the history tab shows the whole path.
 */
import { describe, expect, it } from 'vitest';
import { createServerAjv } from '../../src/server/validation.ts';
import { browserTestsEnabled } from '../support/browser.ts';
import { registry, workflowInBrowser } from '../support/workflow-browser.ts';
import { createSampler } from '../support/sample-data.ts';

const ENTITY = 'pharmacy-appeal';

describe.skipIf(!browserTestsEnabled())('a pharmacy appeal through its status machine in Chromium', () => {
  const { def, machine, api, user, openAs, status, offered, perform } = workflowInBrowser(ENTITY);
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
    // The executor is shown by name on the record page (a key fact in its header and a line of its
    // details), not as a user id.
    await expect
      .poll(() => executor.locator('[data-region="key-facts"] [data-fact="/executorId"] dd').innerText())
      .toBe('executor Flow');
    expect(await executor.locator('[data-region="record-view"] [data-field="/executorId"] dd').innerText()).toBe(
      'executor Flow',
    );
    expect(await offered(executor)).toEqual(['EXTEND_DEADLINE', 'FINISH', 'SEND_TO_COURT']);
    await perform(executor, 'EXTEND_DEADLINE', 'TIME_EXTENDED', {
      newDeadline: '2030-05-17',
      reason: 'Waiting for the pharmacy’s documents',
    });
    await perform(executor, 'PROCESS', 'PROCCESS');
    await perform(executor, 'FINISH', 'FINISHED');
    expect(await offered(executor)).toEqual([]);

    await executor.locator('[data-tab="transitions"]').click();
    await executor.locator('[data-region="transition-history"]').waitFor();
    const path = await executor
      .locator('[data-region="transition-history"] [data-transition]')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-transition')}>${e.getAttribute('data-to')}`));
    expect(path).toEqual([
      'ASSIGN_TO_REGION>SEND_TO_REGION',
      'CONFIRM>BEING_SEEN',
      'ASSIGN_EXECUTOR>PROCCESS',
      'EXTEND_DEADLINE>TIME_EXTENDED',
      'PROCESS>PROCCESS',
      'FINISH>FINISHED',
    ]);
    expect(await executor.locator('[data-region="transition-history"]').innerText()).toContain('Deadline extended');

    const history = await api('GET', `/api${def.manifest.base}/history/${id}`);
    expect((history.list as Array<{ actor: string }>).map((h) => h.actor)).toEqual([
      ...Array(3).fill(String(headId)),
      ...Array(3).fill(String(executorId)),
    ]);
    await executor.context().close();
  });
});
