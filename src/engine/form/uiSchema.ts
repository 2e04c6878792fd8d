/**
 * Preparing a definition's uiSchema for rjsf without changing the shared definition object.
 */
import type { UiSchema } from '@rjsf/utils';
import type { JSONSchema7 } from 'json-schema';
import { isKnownWidgetName } from './widgets/names.ts';
import { pointerSegments } from '../../shared/pointer.ts';

/** Whether rjsf with our theme can render a `ui:widget` of this name (the list `npm run check` uses too). */
export const isKnownWidget = isKnownWidgetName;

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
  return withFieldUi(uiSchema, pointers, 'ui:readonly', true);
}

/**
 * A copy of the uiSchema with the fields at these JSON pointers left out of sight (`ui:widget`
 * hidden; a whole object too): the fields the user may not read, whose values the server does
 * not send either.
 * @example withHiddenFields({}, ['/consumer/pinfl']) // { consumer: { pinfl: { 'ui:widget': 'hidden' } } }
 */
export function withHiddenFields(uiSchema: UiSchema | undefined, pointers: readonly string[]): UiSchema {
  return withFieldUi(uiSchema, pointers, 'ui:widget', 'hidden');
}

/**
 * A copy of the uiSchema whose file fields at these pointers let the user remove any file
 * (`ui:options.replaceable`): the fields an entity's edit rules declare `replaceableFiles`
 * (a photo), where whoever may change the field replaces what another person attached.
 * @example withReplaceableFiles({}, ['/photo']) // { photo: { 'ui:options': { replaceable: true } } }
 */
export function withReplaceableFiles(uiSchema: UiSchema | undefined, pointers: readonly string[]): UiSchema {
  return withFieldUi(uiSchema, pointers, 'ui:options', (old: unknown) => ({
    ...((old as Record<string, unknown> | undefined) ?? {}),
    replaceable: true,
  }));
}

function withFieldUi(
  uiSchema: UiSchema | undefined,
  pointers: readonly string[],
  key: string,
  value: unknown,
): UiSchema {
  const root: UiSchema = { ...(uiSchema ?? {}) };
  for (const pointer of pointers) {
    let node: Record<string, unknown> = root;
    const segments = pointerSegments(pointer);
    segments.forEach((segment, i) => {
      const next = { ...((node[segment] as Record<string, unknown> | undefined) ?? {}) };
      if (i === segments.length - 1)
        next[key] = typeof value === 'function' ? (value as (old: unknown) => unknown)(next[key]) : value;
      node[segment] = next;
      node = next;
    });
  }
  return root;
}

/**
 * A copy of a record schema in which the fields at these pointers are not required: a form
 * that leaves out fields the user may not read must not insist on them (the server keeps
 * their stored values).
 * @example withoutRequired({ type: 'object', required: ['a', 'b'], properties: {} }, ['/a']) // { …, required: ['b'] }
 */
export function withoutRequired(schema: JSONSchema7, pointers: readonly string[]): JSONSchema7 {
  let root = schema;
  for (const pointer of pointers) root = dropRequired(root, pointerSegments(pointer));
  return root;
}

function dropRequired(node: JSONSchema7, segments: string[]): JSONSchema7 {
  const [head, ...rest] = segments;
  if (head === undefined) return node;
  if (!rest.length)
    return node.required?.includes(head) ? { ...node, required: node.required.filter((r) => r !== head) } : node;
  const child = node.properties?.[head];
  if (!child || typeof child !== 'object') return node;
  return { ...node, properties: { ...node.properties, [head]: dropRequired(child, rest) } };
}
