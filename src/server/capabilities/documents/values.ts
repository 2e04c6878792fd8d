import type { JSONSchema7 } from 'json-schema';
import { deref, scalarType } from '../../../shared/field-schema.ts';
import { formatCell } from '../../../shared/cell-formats.ts';
import {
  formatDate,
  formatDateTime,
  resolveColumnFormat,
  statusLabel,
  type FormatContext,
} from '../../../shared/format.ts';

/** What the values of a document need besides the record: the language, texts, lists and people. */
export interface DocumentValueContext extends FormatContext {
  /** `statesKeyOf(manifest)`: where the record's status labels are. */
  statesKey: string;
  /** Names of the staff users the record names, by user id. */
  staffNames: ReadonlyMap<number, string>;
}

/** Whether a field holds staff user ids (the record vocabulary's `staffUser`). */
const isStaff = (field: JSONSchema7 | undefined): boolean =>
  Boolean((field as { staffUser?: boolean } | undefined)?.staffUser);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema of an array's items, or of the field itself. */
const itemsOf = (root: JSONSchema7, field: JSONSchema7): JSONSchema7 | undefined =>
  scalarType(field) === 'array' && isObject(field.items) ? deref(root, field.items as JSONSchema7) : undefined;

/**
 * The staff user ids a record names in its `staffUser` fields, anywhere (nested objects and rows).
 * @example staffIdsOf(schema, { executorId: 7 }) // [7]
 */
export function staffIdsOf(root: JSONSchema7, data: unknown, node: JSONSchema7 = root): number[] {
  const field = deref(root, node) ?? node;
  if (isStaff(field)) {
    const values = Array.isArray(data) ? data : [data];
    return values.map(Number).filter((n) => Number.isInteger(n) && n > 0);
  }
  if (isObject(data) && field.properties)
    return Object.entries(field.properties).flatMap(([k, s]) =>
      typeof s === 'object' ? staffIdsOf(root, data[k], s as JSONSchema7) : [],
    );
  const items = itemsOf(root, field);
  if (Array.isArray(data) && items) return data.flatMap((row) => staffIdsOf(root, row, items));
  return [];
}

/** One value as users read it: the format the list's column of such a field would use. */
function formatField(root: JSONSchema7, field: JSONSchema7, value: unknown, ctx: DocumentValueContext): string {
  if (isStaff(field) || isStaff(itemsOf(root, field))) {
    const ids = Array.isArray(value) ? value : [value];
    return ids.map((id) => ctx.staffNames.get(Number(id)) ?? String(id)).join(', ');
  }
  // resolveColumnFormat reads a field by pointer: a one-field schema lends it one.
  const format = resolveColumnFormat({ field: '/v', titleKey: '' } as never, {
    type: 'object',
    properties: { v: field },
  });
  return formatCell(value, format, ctx);
}

/**
 * A record's values as a template's tags read them, each formatted as users read it:
 * references by their names in the document's language, dates DD.MM.YYYY (Tashkent), enum and
 * yes/no labels, staff users by name; objects stay objects (`{subject.name}`) and rows of
 * objects stay rows (`{#rows}{name}{/rows}`); the status is its label. Fields the reader may
 * not see never reach here: the store leaves them out of the record.
 */
export function documentValues(
  root: JSONSchema7,
  data: Record<string, unknown>,
  ctx: DocumentValueContext,
  node: JSONSchema7 = root,
): Record<string, unknown> {
  const schema = deref(root, node) ?? node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const field = schema.properties?.[key];
    if (value === null || value === undefined) continue;
    if (typeof field !== 'object') {
      out[key] = isObject(value) || Array.isArray(value) ? value : String(value);
      continue;
    }
    const resolved = deref(root, field as JSONSchema7) ?? (field as JSONSchema7);
    const items = itemsOf(root, resolved);
    if (isObject(value) && resolved.properties) out[key] = documentValues(root, value, ctx, resolved);
    else if (Array.isArray(value) && items?.properties)
      out[key] = value.filter(isObject).map((row) => documentValues(root, row, ctx, items));
    else out[key] = formatField(root, resolved, value, ctx);
  }
  return out;
}

/** The tags every template may use besides the record's fields. */
export interface CommonTags {
  /** The record's id, status label and its creation and last change (DD.MM.YYYY HH:mm). */
  id: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  /** The generation date (DD.MM.YYYY, Tashkent) and the generating user's name. */
  today: string;
  user: string;
  /** The entity's title in the document's language. */
  entityTitle: string;
}

/**
 * The tags besides the fields: the record's own facts and the generation's.
 * @example commonTags(record, ctx, new Date(), 'Karimov Anvar', 'Letter').today // '26.11.2026'
 */
export function commonTags(
  record: Record<string, unknown>,
  ctx: DocumentValueContext,
  now: Date,
  user: string,
  entityTitle: string,
): CommonTags {
  // An instant's date is its Tashkent day.
  const today = formatDate(now.toISOString());
  return {
    id: String(record.id ?? ''),
    status: statusLabel(record.status, ctx.translate, ctx.statesKey),
    createdAt: formatDateTime(record.createdAt),
    updatedAt: formatDateTime(record.updatedAt),
    today,
    user,
    entityTitle,
  };
}
