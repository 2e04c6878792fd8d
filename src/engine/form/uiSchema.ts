/**
 * Preparing a definition's uiSchema for rjsf without changing the shared definition object.
 */
import type { UiSchema } from '@rjsf/utils';
import { getDefaultRegistry } from '@rjsf/core';
import { portalWidgets } from './widgets/index.ts';
import { rjsfWidgetNames } from './widgets/names.ts';

const defaultWidgetNames = Object.keys(getDefaultRegistry().widgets);

/** Whether rjsf with our theme can render a `ui:widget` of this name. */
export const isKnownWidget = (name: string): boolean =>
  name in portalWidgets || rjsfWidgetNames.has(name) || defaultWidgetNames.includes(name);

const warned = new Set<string>();

/**
 * A copy of the uiSchema in which a `ui:widget` nobody registered is dropped, so the field
 * falls back to its type's default widget instead of rjsf throwing; the submit button is
 * switched off (screens render their own buttons).
 * @example prepareUiSchema({ name: { 'ui:widget': 'fancy' } }) // { name: {}, 'ui:submitButtonOptions': { norender: true } }
 */
export function prepareUiSchema(uiSchema: UiSchema | undefined): UiSchema {
  const root = clean(uiSchema ?? {}) as UiSchema;
  return { ...root, 'ui:submitButtonOptions': { norender: true } };
}

function clean(node: unknown): unknown {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'ui:widget' && typeof value === 'string' && !isKnownWidget(value)) {
      warnOnce(value);
      continue;
    }
    if (key === 'ui:options' && value && typeof value === 'object') {
      const { widget, ...rest } = value as Record<string, unknown>;
      if (typeof widget === 'string' && !isKnownWidget(widget)) {
        warnOnce(widget);
        out[key] = rest;
        continue;
      }
      out[key] = value;
      continue;
    }
    out[key] = key.startsWith('ui:') ? value : clean(value);
  }
  return out;
}

function warnOnce(name: string): void {
  if (warned.has(name)) return;
  warned.add(name);
  console.warn(`[form] unknown ui:widget "${name}": using the default widget of the field's type`);
}

/**
 * A copy of the uiSchema with `ui:readonly` on the fields at these JSON pointers (the fields
 * a user may read but not change, from their ability): rjsf shows them as read-only and
 * still submits their values unchanged. Nested pointers mark nested fields.
 * @example withReadOnlyFields({ a: { 'ui:widget': 'textarea' } }, ['/a', '/b/c']) // { a: { 'ui:widget': 'textarea', 'ui:readonly': true }, b: { c: { 'ui:readonly': true } } }
 */
export function withReadOnlyFields(uiSchema: UiSchema | undefined, pointers: readonly string[]): UiSchema {
  const root: UiSchema = { ...(uiSchema ?? {}) };
  for (const pointer of pointers) {
    let node: Record<string, unknown> = root;
    const segments = pointer.split('/').slice(1);
    segments.forEach((segment, i) => {
      const next = { ...((node[segment] as Record<string, unknown> | undefined) ?? {}) };
      if (i === segments.length - 1) next['ui:readonly'] = true;
      node[segment] = next;
      node = next;
    });
  }
  return root;
}
