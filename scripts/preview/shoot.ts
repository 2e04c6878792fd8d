/**
 * The screenshots of one entity for `npm run preview`: sample records made through the API,
 * then per language and width the list, the empty form, the filled form, the record page and
 * the machine diagram. A view that does not show is still shot (what the page showed instead)
 * and named in the notes, so a broken screen is visible in the gallery rather than hidden.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { MachineDefinition, ScreenDefinition } from '../../src/generated/meta.ts';
import type { DefinitionRegistry } from '../../src/definitions/registry.ts';
import type { Locale } from '../../src/shared/locales.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { createSampler } from '../../tests/support/sample-data.ts';
import { fillForm } from '../../tests/support/fill-form.ts';
import type { DiagramLabels } from './diagram.ts';
import type { Shot } from './gallery.ts';

export interface PreviewInput {
  registry: DefinitionRegistry;
  id: string;
  url: string;
  /** The admin's sign-in reply. */
  session: Record<string, unknown> & { token: string };
  browser: Browser;
  out: string;
  locales: Locale[];
  widths: number[];
  samples: number;
  /** A text of the locale files, or undefined when the key has none. */
  translate(locale: Locale, key: string): string | undefined;
  diagram(machine: MachineDefinition, labels: DiagramLabels): string;
  rules: Array<{ action: string; subject: string }>;
}

/** The entity's screens a preview shows. */
export function previewScreens(registry: DefinitionRegistry, id: string) {
  const screens = [...registry.screens.values()].filter((s) => s.entity === id);
  const plain = (s: ScreenDefinition) => !(s.options as { view?: string } | undefined)?.view;
  const create = screens.find((s) => (s.kind === 'form' || s.kind === 'wizard') && !s.route.includes(':') && plain(s));
  const list =
    screens.find((s) => s.kind === 'list' && (!create || create.route === `${s.route}/new`)) ??
    screens.find((s) => s.kind === 'list');
  const detail =
    screens.find((s) => s.kind === 'detail' && list && s.route === `${list.route}/:id`) ??
    screens.find((s) => s.kind === 'detail');
  const edit = screens.find((s) => (s.kind === 'form' || s.kind === 'wizard') && s.route.includes(':id') && plain(s));
  return { list, create, detail, edit };
}

/** Creates the sample records through the API; the ids made and what failed. */
async function createSamples(
  input: PreviewInput,
): Promise<{ ids: number[]; first?: Record<string, unknown>; notes: string[] }> {
  const def = input.registry.entities.get(input.id)!;
  const sample = createSampler(def.schema, input.registry.references, createServerAjv());
  const ids: number[] = [];
  const notes: string[] = [];
  let first: Record<string, unknown> | undefined;
  for (let seed = 1; ids.length < input.samples && seed <= input.samples * 4; seed++) {
    let record: Record<string, unknown>;
    try {
      record = sample(seed, { full: ids.length === 0 });
    } catch (error) {
      notes.push(`no sample record could be generated: ${(error as Error).message}`);
      break;
    }
    const res = await fetch(`${input.url}/api${def.manifest.base}/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${input.session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(record),
    });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) {
      notes.push(`sample ${seed} was refused: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      continue;
    }
    ids.push(Number(body.id));
    first ??= record;
  }
  return { ids, first, notes };
}

/** Waits for `selector`; false (and a note) when it does not show. */
async function shows(page: Page, selector: string, notes: string[], what: string): Promise<boolean> {
  try {
    await page.locator(selector).first().waitFor({ timeout: 20_000 });
    // Let the queries the screen started settle (lists, reference lists, labels).
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
    return true;
  } catch {
    notes.push(`${what}: ${selector} did not show at ${page.url()}`);
    return false;
  }
}

/**
 * Every shot of one entity into `input.out`.
 * @example await previewEntity({ registry, id: 'vacancy', url, session, browser, out, locales: ['en'], widths: [1280], … })
 */
export async function previewEntity(input: PreviewInput): Promise<{ shots: Shot[]; notes: string[] }> {
  const { registry, id, url, session } = input;
  const def = registry.entities.get(id)!;
  const { list, create, detail, edit } = previewScreens(registry, id);
  const made = await createSamples(input);
  const notes = [...made.notes];
  const shots: Shot[] = [];
  const recordId = made.ids[0];
  const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
  if (!list) notes.push('no list screen');
  if (!create) notes.push('no create form screen');
  if (!detail) notes.push('no record page screen');
  if (!edit) notes.push('no edit screen: the filled form is the create form filled with a sample');
  if (!machine)
    notes.push(`no machine: ${def.manifest.initialStatus ? `every record is ${def.manifest.initialStatus}` : 'none'}`);

  for (const locale of input.locales) {
    for (const width of input.widths) {
      const context = await input.browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
      // Signed in as saveSession (src/client/session.ts) leaves it: the settings, JSON each.
      const settings: Record<string, unknown> = {
        locale,
        accessToken: session.token,
        refreshToken: session.refreshToken,
        userId: session.id,
        userInfo: { id: session.id, username: session.username },
        isOuter: false,
        avatarUrl: null,
        permissionRules: [...input.rules, ...((session.fieldRules as unknown[]) ?? [])],
      };
      await context.addInitScript((s) => {
        for (const [k, v] of Object.entries(s)) localStorage.setItem(`portal.${k}`, JSON.stringify(v));
      }, settings);
      const page = await context.newPage();
      const shoot = async (view: string, caption: string): Promise<void> => {
        const file = `${view}-${locale}-${width}.png`;
        // The shell scrolls inside its main region, which a full-page shot does not unroll (and a
        // sticky button bar would sit over the fields): the window is made as tall as the page and
        // the screen's own scroll need (capped), laid out again, shot, and put back.
        const frames = () =>
          page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
        const needed = () =>
          page.evaluate(() =>
            Math.max(
              document.documentElement.scrollHeight,
              window.innerHeight +
                Math.max(
                  0,
                  // The screen's own scroll, not the menu's: the menu is the same on every shot.
                  ...[...document.querySelectorAll('[data-region="main"], [data-region="main"] *')].map((e) =>
                    /(auto|scroll)/.test(getComputedStyle(e).overflowY) ? e.scrollHeight - e.clientHeight : 0,
                  ),
                ),
            ),
          );
        for (let i = 0, height = 900; i < 3; i++) {
          const want = Math.min(await needed(), 8000);
          if (want <= height) break;
          height = want;
          await page.setViewportSize({ width, height });
          await frames();
        }
        await page.screenshot({ path: path.join(input.out, file) });
        await page.setViewportSize({ width, height: 900 });
        shots.push({ view, locale, width, file, caption: `${caption} · ${locale} · ${width} px` });
      };
      const visit = async (view: string, screen: ScreenDefinition, route: string, ready: string, caption: string) => {
        await page.goto(`${url}${route}`);
        const ok = await shows(page, ready, notes, `${view} (${locale}, ${width} px)`);
        await shoot(view, `${caption} — ${screen.id} ${route}${ok ? '' : ' (did not show as expected)'}`);
      };
      try {
        if (list) await visit('list', list, list.route, `[data-screen="${list.id}"] .ag-row`, 'List');
        if (create)
          await visit(
            'form-empty',
            create,
            create.route,
            `[data-screen="${create.id}"] [data-entity="${id}"]`,
            'Empty form',
          );
        if (edit && recordId !== undefined) {
          const route = edit.route.replace(':id', String(recordId));
          await visit('form-filled', edit, route, `[data-screen="${edit.id}"] [data-entity="${id}"]`, 'Filled form');
        } else if (create && made.first) {
          await page.goto(`${url}${create.route}`);
          if (await shows(page, `[data-screen="${create.id}"] [data-entity="${id}"]`, notes, 'filled form'))
            await fillForm(page, def.schema, made.first).catch((e: Error) => notes.push(`filling: ${e.message}`));
          await shoot('form-filled', `Create form filled with a sample — ${create.id}`);
        }
        if (detail && recordId !== undefined) {
          const route = detail.route.replace(':id', String(recordId));
          await visit('record', detail, route, `[data-screen="${detail.id}"][data-record]`, 'Record page');
        }
        if (machine) {
          const labels: DiagramLabels = {
            state: (s) =>
              input.translate(locale, `workflow.${machine.id}.states.${s}`) ?? input.translate(locale, `status.${s}`),
            event: (e) => input.translate(locale, `workflow.${machine.id}.events.${e}`),
          };
          const svg = input.diagram(machine, labels);
          // The SVG itself too: at 360 px the picture is scaled down, the SVG zooms.
          writeFileSync(path.join(input.out, `machine-${locale}.svg`), svg);
          await page.setContent(
            `<!doctype html><meta charset="utf-8"><body style="margin:12px;font-family:sans-serif">` +
              `<h1 style="font-size:18px">${machine.id} · version ${machine.version}</h1>` +
              `<div style="max-width:100%">${svg.replace('<svg ', '<svg style="max-width:100%;height:auto" ')}</div></body>`,
          );
          await shoot(
            'machine',
            `Machine ${machine.id} (version ${machine.version}); full size: machine-${locale}.svg`,
          );
        }
      } finally {
        await context.close();
      }
    }
  }
  return { shots, notes: [...new Set(notes)] };
}
