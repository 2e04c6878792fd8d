/**
 * A pharmacy appeal moved from CREATED to FINISHED in Debian's Chromium through the
 * transition bar's buttons, by the roles the machine and access.json assign: the regional
 * department head sends it to the region, confirms it and assigns the executor (chosen by name
 * with the staff picker, shown by name on the page); the executor
 * extends the deadline, continues and finishes. Each sees only the buttons their role and the
 * machine allow; the history tab shows the whole path.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import type { RJSFSchema } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/server/app.ts';
import { payloadSchemaFor } from '../../src/server/workflow/machine.ts';
import { createFormCompiler } from '../../src/engine/form/form-compiler.ts';
import { localizeErrors, propertyToPointer } from '../../src/engine/form/localize.ts';
import { translateMessage } from '../../src/engine/form/messages.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { browserTestsEnabled } from '../support/browser.ts';
import { registry, workflowInBrowser } from '../support/workflow-browser.ts';
import { createSampler } from '../support/sample-data.ts';

const ENTITY = 'pharmacy-appeal';

/** The built app's chunk file of each module (dist/web/.vite/manifest.json). */
const builtChunks = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(
      JSON.parse(readFileSync(path.join(REPO_ROOT, 'dist/web/.vite/manifest.json'), 'utf8')) as Record<
        string,
        { file: string }
      >,
    ).map(([key, chunk]) => [key, chunk.file]),
  );

/** What the form's compiler (the validator before the generated code) shows on each field for `data`, in English. */
async function compilerMessages(schema: RJSFSchema, data: unknown): Promise<Record<string, string>> {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'en',
    resources: { en: { translation: registry.locales.en } },
    interpolation: { escapeValue: false },
  });
  const { errors } = createFormCompiler().validateFormData(data, schema, undefined, localizeErrors);
  return Object.fromEntries(errors.map((e) => [propertyToPointer(e.property), translateMessage(i18n, e.message!)]));
}

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

    // The payload dialog validates with the code the build generated from the machine: opening
    // it, sending it empty and then filled loads the machine's validators and never the JSON
    // Schema compiler, and the messages are the compiler's own.
    const requested: string[] = [];
    executor.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await executor.locator('[data-region="transitions"] [data-event="EXTEND_DEADLINE"]').click();
    const dialog = executor.locator('[data-dialog="transition"][data-event="EXTEND_DEADLINE"]');
    await dialog.locator('[data-field="/reason"]').waitFor();
    await dialog.locator('[data-action="send"]').click();
    const payloadSchema = payloadSchemaFor(machine, 'PROCCESS', 'EXTEND_DEADLINE')! as RJSFSchema;
    const expected = await compilerMessages(payloadSchema, {});
    expect(Object.keys(expected).sort()).toEqual(['/newDeadline', '/reason']);
    for (const [pointer, message] of Object.entries(expected))
      await expect
        .poll(() => dialog.locator(`[data-field="${pointer}"] .fui-Field__validationMessage`).innerText(), {
          message: pointer,
        })
        .toBe(message);
    await dialog.locator('[data-action="cancel"]').click();
    await dialog.waitFor({ state: 'detached' });
    await perform(executor, 'EXTEND_DEADLINE', 'TIME_EXTENDED', {
      newDeadline: '2030-05-17',
      reason: 'Waiting for the pharmacy’s documents',
    });
    const built = builtChunks();
    expect(requested.filter((p) => p === `/${built['src/engine/form/form-compiler.ts']}`)).toEqual([]);
    // The listener saw the dialog's loads: the machine's generated validators among them.
    expect(requested).toContain(`/${built[`workflows/${machine.id}.machine.json?form-validator`]}`);
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
