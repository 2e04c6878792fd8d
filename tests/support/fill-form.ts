/**
 * Fills an engine-rendered form in the browser from a record, field by field, the way a
 * person would: it finds each field by its `data-field` JSON pointer and uses the control
 * the widget renders (native select, radio, checkbox, masked or plain input, a record search).
 */
import type { Page } from 'playwright-core';
import type { JSONSchema7 } from 'json-schema';
import { deref } from '../../src/shared/field-schema.ts';

type Annotated = JSONSchema7 & {
  reference?: unknown;
  file?: boolean;
  entityRef?: { entity: string };
  staffUser?: boolean;
};

const toDisplayDate = (iso: string): string => {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(iso);
  if (!m) return iso;
  return m[4] ? `${m[3]}.${m[2]}.${m[1]} ${m[4]}:${m[5]}` : `${m[3]}.${m[2]}.${m[1]}`;
};

/** Fills the fields of `data` that are on the page now (a wizard shows one step at a time). */
export async function fillForm(
  page: Page,
  root: JSONSchema7,
  data: Record<string, unknown>,
  prefix = '',
  node: JSONSchema7 = root,
): Promise<string[]> {
  const filled: string[] = [];
  // A form still loading (its code or validator: data-form-loading) has none of its fields yet.
  if (!prefix) await page.locator('[data-form-loading]').first().waitFor({ state: 'detached', timeout: 30_000 });
  // Parents before children that depend on them (a district after its region).
  const entries = Object.entries(data).sort(([a], [b]) => order(node, a) - order(node, b));
  for (const [name, value] of entries) {
    const schema = deref(root, node.properties?.[name]) as Annotated | undefined;
    if (!schema || value === undefined || value === null) continue;
    const pointer = `${prefix}/${name}`;
    const field = page.locator(`[data-field="${pointer}"]`).first();
    // A field the form does not show (not rendered, or hidden by its `showWhen`) is not a person's to fill.
    if (!(await field.count()) || !(await field.isVisible())) continue;
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    if (type === 'object' && schema.properties && !('lat' in (schema.properties ?? {}))) {
      filled.push(...(await fillForm(page, root, value as Record<string, unknown>, pointer, schema)));
      continue;
    }
    if (schema.file) continue; // records to fill carry no files
    if (type === 'array') {
      const items = deref(root, schema.items as JSONSchema7);
      if (!Array.isArray(value) || !items || items.type !== 'object') continue;
      for (let i = 0; i < value.length; i++) {
        if (!(await page.locator(`[data-field="${pointer}/${i}"]`).count())) {
          await field.locator('[data-action="add-row"]').first().click();
          await page.locator(`[data-field="${pointer}/${i}"]`).first().waitFor();
        }
        filled.push(...(await fillForm(page, root, value[i] as Record<string, unknown>, `${pointer}/${i}`, items)));
      }
      continue;
    }
    if (schema.entityRef) {
      // The search combobox picks a record by its number when typed as "#<id>".
      const input = field.locator('input').first();
      await input.fill(`#${String(value)}`);
      await page.locator('[role="listbox"] [role="option"]:visible').first().click();
      filled.push(pointer);
      continue;
    }
    if (schema.staffUser) {
      // The staff picker: search the person's name (asked as the signed-in user), choose them.
      const input = field.locator('input').first();
      if (await input.evaluate((el) => (el as HTMLInputElement).readOnly)) continue;
      const name = await page.evaluate(async (id) => {
        const token = JSON.parse(localStorage.getItem('portal.accessToken') ?? 'null') as string | null;
        const res = await fetch(`/api/staff-users?ids=${id}`, {
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
        return ((await res.json()) as { list: Array<{ name: string }> }).list[0]?.name ?? '';
      }, String(value));
      await input.fill(name.split(' ')[0] ?? '');
      await page.locator(`[role="option"][data-staff-user="${String(value)}"]`).click();
      filled.push(pointer);
      continue;
    }
    const select = field.locator('select').first();
    const choice = Boolean(schema.enum || schema.oneOf || schema.reference);
    const radio = field.locator(`input[type=radio][value=${JSON.stringify(String(value))}]`).first();
    if (type === 'boolean') {
      const box = field.locator('input[type=checkbox]').first();
      if (value) await box.check();
      else await box.uncheck();
    } else if (await select.count()) {
      await select.waitFor({ state: 'visible' });
      await page.waitForFunction(
        ([sel, v]) => {
          const el = document.querySelector(sel as string) as HTMLSelectElement | null;
          return Boolean(el && !el.disabled && [...el.options].some((o) => o.value === v));
        },
        [`[data-field="${pointer}"] select`, String(value)] as const,
      );
      await select.selectOption(String(value));
    } else if (choice && (await radio.count())) {
      await radio.check();
    } else {
      const input = field.locator('input:not([type=hidden]), textarea').first();
      const text =
        schema.format === 'date' || schema.format === 'date-time' ? toDisplayDate(String(value)) : String(value);
      await input.fill(text);
      await input.blur();
    }
    filled.push(pointer);
  }
  return filled;
}

function order(node: JSONSchema7, name: string): number {
  const prop = node.properties?.[name] as Annotated | undefined;
  return prop && typeof prop === 'object' && (prop.reference as { parentField?: string } | undefined)?.parentField
    ? 1
    : 0;
}
