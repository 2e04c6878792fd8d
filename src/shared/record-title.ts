/**
 * How a record and a field's values are named for people: a value of a field with the
 * `valueLabels` keyword by its text in the user's language (a role's code → "Администратор"),
 * and a record on its own page by its manifest's `titleFields` (else its `labelField`).
 * Pure and isomorphic: the caller passes its translator.
 */
import type { JSONSchema7 } from 'json-schema';
import type { EntityManifest } from '../generated/meta.ts';
import { resolveFieldSchema } from './field-schema.ts';
import { getAtPointer } from './pointer.ts';

/** A translator that can tell whether a text exists (i18next's `t` and `exists`). */
export interface Texts {
  t(key: string): string;
  exists(key: string): boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The `valueLabels` key prefix of a field (or of its items, for a list of values).
 * @example valueLabelsOf({ type: 'string', valueLabels: 'entity.role.role' }) // 'entity.role.role'
 */
export function valueLabelsOf(field: JSONSchema7 | undefined): string | undefined {
  if (!field) return undefined;
  const own = (field as { valueLabels?: unknown }).valueLabels;
  if (typeof own === 'string') return own;
  const items = isRecord(field.items) ? (field.items as { valueLabels?: unknown }).valueLabels : undefined;
  return typeof items === 'string' ? items : undefined;
}

/**
 * A value as people read it: the text `<valueLabels>.<value>` when the field names its values
 * and that text exists, else the value itself.
 * @example valueLabel('admin', 'entity.role.role', texts) // 'Administrator'
 */
export function valueLabel(value: unknown, valueLabels: string | undefined, texts: Texts): string {
  const plain = value === undefined || value === null ? '' : String(value);
  if (!valueLabels || plain === '') return plain;
  const key = `${valueLabels}.${plain}`;
  return texts.exists(key) ? texts.t(key) : plain;
}

/**
 * The name of a record on its own page: the values at the manifest's `titleFields` (else its
 * `labelField`) joined with spaces, each named by its field's `valueLabels`; '' when the
 * record has none of them (the page then says "<entity> No. <id>").
 * @example recordTitle({ titleFields: ['/lastName', '/firstName'] }, schema, { lastName: 'Aliyev', firstName: 'Vali' }, texts) // 'Aliyev Vali'
 */
export function recordTitle(
  manifest: Pick<EntityManifest, 'titleFields' | 'labelField'>,
  schema: JSONSchema7,
  record: Record<string, unknown>,
  texts: Texts,
): string {
  const fields = manifest.titleFields ?? (manifest.labelField ? [manifest.labelField] : []);
  return fields
    .map((pointer) => {
      const value = getAtPointer(record, pointer);
      if (value === undefined || value === null || isRecord(value) || Array.isArray(value)) return '';
      return valueLabel(value, valueLabelsOf(resolveFieldSchema(schema, pointer)), texts).trim();
    })
    .filter(Boolean)
    .join(' ');
}
