/**
 * The record page's read view as data: which fields it shows, in which labelled sections, and
 * how each value is shown — pure, so the rules are tested without rendering. The sections
 * follow the ui schema's `ui:order` (its `*` standing for the fields it leaves out) and the
 * record schema's nested objects: a run of plain fields is one section without a heading, a
 * nested object its own section titled by the object's title ("Section › Sub" deeper down).
 */
import type { JSONSchema7 } from 'json-schema';
import type { UiSchema } from '@rjsf/utils';
import { deref, isSystemPointer, resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { resolveColumnFormat, type ColumnFormat, type GridColumn } from '../../shared/format.ts';
import { isHiddenField } from '../../shared/hidden-fields.ts';
import { CELL_FORMAT_NAMES } from '../../shared/cell-formats.ts';
import { pointerSegments, toPointer } from '../../shared/pointer.ts';
import { selfReadingWidgetNames } from '../form/widgets/names.ts';

/** How one field's value is drawn. */
export type ReadKind =
  /** One value as the list shows it (dates, choices, reference names, yes/no, money). */
  | 'value'
  /** File ids: download links by the files' names. */
  | 'files'
  /** A staff user id (`staffUser`): the person's name. */
  | 'staffUser'
  /** A record of another entity (`entityRef`): its label. */
  | 'entityRef'
  /** A list of objects: a small table, one column per item field. */
  | 'table'
  /** A widget that draws its value read-only itself (selfReadingWidgetNames): `widget`, `options`. */
  | 'widget';

/** One field of the read view. */
export interface ReadField {
  pointer: string;
  /** The schema's title (an i18n key), if any. */
  titleKey?: string;
  kind: ReadKind;
  /** For `value`: the format, resolved as the list resolves a column's. */
  format?: ColumnFormat;
  /** For `entityRef`: the other entity. */
  entity?: string;
  /** For `table`: the item fields, their pointers relative to the item. */
  columns?: ReadField[];
  /** Long text: shown with its line breaks. */
  multiline?: boolean;
  /** For `widget`: its `ui:widget` name and `ui:options`. */
  widget?: string;
  options?: Record<string, unknown>;
}

/** A labelled group of fields; `titleKeys` empty for the record's own plain fields. */
export interface ReadSection {
  pointer: string;
  titleKeys: string[];
  fields: ReadField[];
}

type Ui = UiSchema & Record<string, unknown>;

const isObjectSchema = (s: JSONSchema7 | undefined): s is JSONSchema7 =>
  Boolean(s && scalarType(s) === 'object' && s.properties);

/** The property names of an object in the ui schema's order (`*` = the rest, appended when absent). */
function ordered(names: string[], ui: Ui | undefined): string[] {
  const order = (ui?.['ui:order'] as string[] | undefined)?.filter((n) => n === '*' || names.includes(n));
  if (!order?.length) return names;
  const rest = names.filter((n) => !order.includes(n));
  const star = order.indexOf('*');
  const listed = order.filter((n) => n !== '*');
  return star < 0 ? [...listed, ...rest] : [...listed.slice(0, star), ...rest, ...listed.slice(star)];
}

const widgetOf = (ui: Ui | undefined): string | undefined => ui?.['ui:widget'] as string | undefined;

/** How one field (its schema already followed through `$ref`) is shown. */
export function readField(root: JSONSchema7, pointer: string, field: JSONSchema7, ui: Ui | undefined): ReadField {
  const titleKey = field.title;
  const base = { pointer, ...(titleKey ? { titleKey } : {}) };
  const widget = widgetOf(ui);
  const keywords = field as { file?: unknown; staffUser?: unknown; entityRef?: { entity?: string } };
  if (keywords.file === true || widget === 'file') return { ...base, kind: 'files' };
  if (widget && selfReadingWidgetNames.has(widget))
    return { ...base, kind: 'widget', widget, options: (ui?.['ui:options'] as Record<string, unknown>) ?? {} };
  if (keywords.staffUser === true || widget === 'staffUser') return { ...base, kind: 'staffUser' };
  if (keywords.entityRef?.entity) return { ...base, kind: 'entityRef', entity: keywords.entityRef.entity };
  const items = scalarType(field) === 'array' ? deref(root, field.items as JSONSchema7) : undefined;
  // A list of other records' ids (a consolidated record's sources): each by its label.
  const itemRef = (items as { entityRef?: { entity?: string } } | undefined)?.entityRef?.entity;
  if (itemRef) return { ...base, kind: 'entityRef', entity: itemRef };
  if (isObjectSchema(items)) {
    const itemUi = ui?.items as Ui | undefined;
    const columns = ordered(Object.keys(items.properties!), itemUi)
      .filter((name) => widgetOf(itemUi?.[name] as Ui) !== 'hidden')
      .map((name) =>
        readField(root, toPointer([name]), deref(root, items.properties![name])!, itemUi?.[name] as Ui | undefined),
      );
    return { ...base, kind: 'table', columns };
  }
  // The list's rules on a one-field schema: the same kinds, choices and reference lists as a column.
  // `ui:options.format` names a list format for the page (a year as 2025, not "2 025").
  const named = (ui?.['ui:options'] as { format?: string } | undefined)?.format;
  const format =
    widget === 'money'
      ? ({ kind: 'money' } as ColumnFormat)
      : named && (CELL_FORMAT_NAMES as string[]).includes(named)
        ? ({ kind: named } as ColumnFormat)
        : resolveColumnFormat({ field: '/v' } as GridColumn, { type: 'object', properties: { v: field } });
  return { ...base, kind: 'value', format, ...(widget === 'textarea' ? { multiline: true } : {}) };
}

/**
 * The read view's sections of a record schema and its ui schema, without the fields hidden from
 * the reader (`hidden`: their roles' hiddenFields) or by the form (`ui:widget: hidden`).
 * @example readSections(schema, ui) // [{ pointer: '', titleKeys: [], fields: [...] }, { pointer: '/customer', titleKeys: ['…customer'], fields: [...] }]
 */
export function readSections(root: JSONSchema7, uiSchema: UiSchema | undefined, hidden: readonly string[] = []) {
  const sections: ReadSection[] = [];
  const walk = (node: JSONSchema7, ui: Ui | undefined, at: string[], titleKeys: string[]) => {
    const own: ReadSection = { pointer: toPointer(at), titleKeys, fields: [] };
    sections.push(own);
    const nested: Array<() => void> = [];
    for (const name of ordered(Object.keys(node.properties ?? {}), ui)) {
      const pointer = toPointer([...at, name]);
      const fieldUi = ui?.[name] as Ui | undefined;
      const field = deref(root, node.properties![name]);
      // A field hidden in the form stays off the page too, unless it is the server's to fill and
      // worth reading (`ui:options.onRecord`, e.g. a consolidated record's sources).
      const formOnly = widgetOf(fieldUi) === 'hidden' && (fieldUi?.['ui:options'] as Ui | undefined)?.onRecord !== true;
      if (!field || formOnly || isHiddenField(hidden, pointer)) continue;
      if (isObjectSchema(field) && widgetOf(fieldUi) === undefined) {
        const titles = field.title ? [...titleKeys, field.title] : titleKeys;
        nested.push(() => walk(field, fieldUi, [...at, name], titles));
      } else own.fields.push(readField(root, pointer, field, fieldUi));
    }
    for (const next of nested) next();
  };
  walk(root, uiSchema as Ui | undefined, [], []);
  return sections.filter((s) => s.fields.length > 0);
}

/**
 * Whether a value is "nothing to show": absent, an empty text, an empty list, or an object
 * whose fields are all empty. `false` and `0` are values.
 */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(isEmptyValue);
  if (typeof value === 'object') return Object.values(value).every(isEmptyValue);
  return false;
}

/**
 * The i18n title keys of a field and the objects it lies in, outermost first ("Section ›
 * Field"); a segment without a title is left out. Empty when the field is unknown.
 * @example fieldTitleKeys(schema, '/customer/surname') // ['entity.gadget.field.customer', 'entity.gadget.field.customer.surname']
 */
export function fieldTitleKeys(root: JSONSchema7, pointer: string): string[] {
  const segments = pointerSegments(pointer);
  const keys: string[] = [];
  for (let i = 1; i <= segments.length; i++) {
    const title = resolveFieldSchema(root, toPointer(segments.slice(0, i)))?.title;
    if (title) keys.push(title);
    else if (i === segments.length) return [];
  }
  return keys;
}

/** The staff user ids a record holds in these `staffUser` fields. */
export function staffUserIds(fields: readonly ReadField[], value: (pointer: string) => unknown): number[] {
  const ids = fields
    .filter((f) => f.kind === 'staffUser')
    .flatMap((f) => {
      const v = value(f.pointer);
      return Array.isArray(v) ? v : [v];
    })
    .filter((v): v is number => typeof v === 'number');
  return [...new Set(ids)];
}

/** The ui schema of the field at `pointer` (nested objects' own entries), if any. */
function uiAt(uiSchema: UiSchema | undefined, pointer: string): Ui | undefined {
  let node = uiSchema as Ui | undefined;
  for (const segment of pointerSegments(pointer)) node = node?.[segment] as Ui | undefined;
  return node;
}

/**
 * The key facts a detail screen declares (`options.keyFacts`, JSON pointers `npm run check`
 * has checked), as read fields; those hidden from the reader are left out.
 * @example keyFactFields(schema, ui, ['/deadline', '/executorId']) // [{ pointer: '/deadline', kind: 'value', … }, …]
 */
export function keyFactFields(
  root: JSONSchema7,
  uiSchema: UiSchema | undefined,
  pointers: readonly string[],
  hidden: readonly string[] = [],
): ReadField[] {
  return pointers.flatMap((pointer) => {
    const field = resolveFieldSchema(root, pointer);
    if (!field || isHiddenField(hidden, pointer)) return [];
    const read = readField(root, pointer, field, uiAt(uiSchema, pointer));
    // A server-owned field (the date it was made) is titled by its common name.
    return [isSystemPointer(pointer) ? { ...read, titleKey: `common.field.${pointer.slice(1)}` } : read];
  });
}
