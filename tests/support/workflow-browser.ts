/**
 * The browser side of a workflow test: a portal with Chromium, the admin's API, users of a
 * role, and a record's page driven through the transition bar (`data-event` buttons, the
 * confirmation or the payload dialog). Call it inside a `describe`: it registers the hooks.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { payloadSchemaFor } from '../../src/server/workflow/machine.ts';
import { launchBrowser, startPortal, signInThroughForm } from './browser.ts';
import { TEST_ADMIN_PASSWORD } from './app.ts';

export const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const PASSWORD = 'correct horse battery';

export function workflowInBrowser(entity: string) {
  const def = registry.entities.get(entity)!;
  const machine = registry.machines.get(def.manifest.workflow!)!;
  const detail = [...registry.screens.values()].find((s) => s.entity === entity && s.kind === 'detail')!;
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let admin: Record<string, string>;
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${portal.url}${url}`, {
      method,
      headers: admin,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const user = async (username: string, role: string, regionId: number) => {
    const created = await api('POST', '/api/portal-user/create', {
      username,
      firstName: 'Flow',
      lastName: role,
      isOuter: false,
      canLogin: true,
      roles: [role],
      regionId,
    });
    await api('POST', '/api/auth/set-password', { userId: created.id, password: PASSWORD });
    return Number(created.id);
  };

  beforeAll(async () => {
    portal = await startPortal();
    browser = await launchBrowser();
    const signIn = await fetch(`${portal.url}/api/auth-payload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
    admin = {
      authorization: `Bearer ${((await signIn.json()) as { token: string }).token}`,
      'content-type': 'application/json',
    };
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** A fresh browser session signed in as `username`, on the record's page. */
  const openAs = async (
    username: string,
    id: number,
    { locale = 'en', width = 1280 }: { locale?: string; width?: number } = {},
  ): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
    await context.addInitScript((l) => localStorage.setItem('portal.locale', JSON.stringify(l)), locale);
    const page = await context.newPage();
    const route = detail.route.replace(':id', String(id));
    await signInThroughForm(page, `${portal.url}${route}`, username, PASSWORD);
    await page.locator(`[data-screen="${detail.id}"] [data-region="transitions"]`).waitFor();
    return page;
  };
  // The header's status chip (the transition bar holds only the buttons).
  const status = (page: Page) => page.locator('[data-region="record-status"]').getAttribute('data-status');
  const offered = async (page: Page) => {
    await page.locator('[data-region="transitions"] [data-event], [data-region="no-events"]').first().waitFor();
    return (
      await page
        .locator('[data-region="transitions"] [data-event]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-event')))
    ).sort();
  };
  /** Clicks an event's button and agrees (or fills its payload form; staff by the picker) and waits for the new status. */
  const perform = async (page: Page, event: string, to: string, payload?: Record<string, unknown>) => {
    const from = await status(page);
    await page.locator(`[data-region="transitions"] [data-event="${event}"]`).click();
    if (payload) {
      const dialog = page.locator(`[data-dialog="transition"][data-event="${event}"]`);
      await dialog.waitFor();
      // The record's own form on the page has fields of the same names: fill the dialog's.
      const schema = payloadSchemaFor(machine, from!, event)!;
      for (const [name, value] of Object.entries(payload)) {
        const field = schema.properties?.[name] as { format?: string; staffUser?: boolean } | undefined;
        if (field?.staffUser) {
          // The staff picker: type the person's surname, choose them from the list.
          const [person] = (await api('GET', `/api/staff-users?ids=${String(value)}`)).list as Array<{ name: string }>;
          const input = dialog.locator(`[data-field="/${name}"] input`).first();
          // As a person would: send once the box shows the chosen name, and pick again when it
          // does not (on a loaded machine a click can land while the list is being redrawn).
          let shown = '';
          for (let attempt = 0; attempt < 3 && !shown.includes(person!.name); attempt++) {
            await input.fill(person!.name.split(' ')[0]!);
            await page.locator(`[role="option"][data-staff-user="${String(value)}"]`).click();
            await input.blur();
            shown = await expect
              .poll(() => input.inputValue(), { timeout: 5_000 })
              .toContain(person!.name)
              .then(
                () => person!.name,
                () => input.inputValue(),
              );
          }
          expect(shown, `the staff picker of ${event} after three picks`).toContain(person!.name);
          continue;
        }
        const format = field?.format;
        const text = format === 'date' ? String(value).split('-').reverse().join('.') : String(value);
        const input = dialog.locator(`[data-field="/${name}"]`).locator('input:not([type=hidden]), textarea').first();
        await input.fill(text);
        await input.blur();
      }
      await dialog.locator('[data-action="send"]').click();
    } else {
      await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
    }
    try {
      await page.locator(`[data-region="record-status"][data-status="${to}"]`).waitFor();
    } catch (error) {
      // Say what the page showed instead: the dialog's errors or a reported refusal.
      const shown = await page
        .locator('[data-dialog], [role="alert"], [data-toast], .fui-Toast')
        .allInnerTexts()
        .catch(() => []);
      throw new Error(
        `${event} did not reach ${to} (status ${await status(page)}); the page showed: ${JSON.stringify(shown)}`,
        { cause: error },
      );
    }
  };

  return { def, machine, detail, api, user, openAs, status, offered, perform };
}
