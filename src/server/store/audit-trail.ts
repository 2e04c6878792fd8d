import type { JSONSchema7 } from 'json-schema';
import type { AuditChange } from '../../shared/audit.ts';
import { touchesHiddenField, isHiddenField, withoutFields } from '../../shared/hidden-fields.ts';
import { findStaffUserFields } from './record-schema.ts';
import { changedPointers, sameJson } from '../../shared/json-diff.ts';
import { valueAt } from '../../shared/format.ts';

/**
 * What an audit row keeps of a change, and what of it a reader is shown. A row names the
 * top-level fields that changed (`changed`) and keeps, for every changed field pointer, its
 * old and new value (`diff`): objects are compared field by field, so a nested field is its
 * own entry; texts, numbers and arrays are compared whole. Values are compared as JSON
 * values — the order of object keys is no change. Rows stay bounded: a value longer than
 * AUDIT_VALUE_CHARS keeps only its start and is marked `truncated`.
 */

/**
 * The longest value an audit row keeps whole, in characters: a text's own characters (the
 * longest texts the schemas allow, 10 000, are kept whole), any other value's JSON text (a
 * long array is kept as the start of its JSON text).
 */
export const AUDIT_VALUE_CHARS = 10_000;

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The top-level fields whose values differ, sorted.
 * @example changedFields({ c: { a: 1, b: 2 }, d: 1 }, { c: { b: 2, a: 1 } }) // ['d']
 */
export function changedFields(before: Data, after: Data): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !sameJson(before[k], after[k])).sort();
}

/** A text cut to `limit` characters, not inside a surrogate pair (a lone half is no valid JSON for PostgreSQL). */
function cutText(text: string, limit: number): string {
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

/** A value as an audit row keeps it: whole, or the start of its text when longer than the cap. */
function bounded(value: unknown): { value: unknown; cut: boolean } {
  const text = typeof value === 'string' ? value : isObject(value) || Array.isArray(value) ? JSON.stringify(value) : undefined;
  return text !== undefined && text.length > AUDIT_VALUE_CHARS ? { value: cutText(text, AUDIT_VALUE_CHARS), cut: true } : { value, cut: false };
}

/** One change with both sides bounded; an absent side stays absent. */
function change(pointer: string, before: unknown, after: unknown): AuditChange {
  const out: AuditChange = { pointer };
  const truncated: Array<'old' | 'new'> = [];
  if (before !== undefined) {
    const kept = bounded(before);
    out.old = kept.value;
    if (kept.cut) truncated.push('old');
  }
  if (after !== undefined) {
    const kept = bounded(after);
    out.new = kept.value;
    if (kept.cut) truncated.push('new');
  }
  if (truncated.length) out.truncated = truncated;
  return out;
}

/**
 * The changes from `before` to `after` (either absent: a create, a delete), one per changed
 * field pointer, in pointer order.
 * @example auditChanges({ c: { n: 'Ali', p: 1 } }, { c: { p: 1, n: 'Vali' } }) // [{ pointer: '/c/n', old: 'Ali', new: 'Vali' }]
 */
export function auditChanges(before: Data | undefined, after: Data | undefined): AuditChange[] {
  return changedPointers(before, after).map((pointer) => change(pointer, valueAt(before, pointer), valueAt(after, pointer)));
}

/**
 * What an audit row keeps of a write: the top-level fields it changed and their old → new
 * values; a status change (a transition) is the field `status`.
 */
export function auditRow(before: Data | undefined, after: Data | undefined, status?: { old: string; new: string }): { changed: string[]; diff: AuditChange[] } {
  const changed = changedFields(before ?? {}, after ?? {});
  const diff = auditChanges(before, after);
  if (!status || status.old === status.new) return { changed, diff };
  return { changed: [...changed, 'status'].sort(), diff: [...diff, { pointer: '/status', old: status.old, new: status.new }].sort(byPointer) };
}

/** Pointer order: segment by segment, so a field's nested entries stay together. */
function byPointer(a: AuditChange, b: AuditChange): number {
  const [x, y] = [a.pointer.split('/'), b.pointer.split('/')];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

const staffPaths = new WeakMap<JSONSchema7, string[]>();
/**
 * The pointers of a schema's staff user fields (`staffUser`) as far as audit pointers reach:
 * up to the first array (a list of staff ids, or of objects holding one, is one entry).
 */
export function staffUserPointers(schema: JSONSchema7): string[] {
  let known = staffPaths.get(schema);
  if (!known) {
    known = [...new Set(findStaffUserFields(schema).map(({ path }) => `/${(path.includes('*') ? path.slice(0, path.indexOf('*')) : path).join('/')}`))];
    staffPaths.set(schema, known);
  }
  return known;
}

/**
 * One change without what lies at `pointers` (relative to the record): undefined when the
 * change is at or inside one of them; with those fields taken out of an object value; marked
 * `withheld` when a value holds one but cannot be taken apart (it was cut to its text).
 */
function without(c: AuditChange, pointers: readonly string[]): AuditChange | undefined | 'withheld' {
  if (isHiddenField(pointers, c.pointer)) return undefined;
  if (!touchesHiddenField(pointers, c.pointer)) return c;
  const inner = pointers.filter((p) => p.startsWith(`${c.pointer}/`)).map((p) => p.slice(c.pointer.length));
  const out: AuditChange = { ...c };
  for (const side of ['old', 'new'] as const) {
    if (!(side in c)) continue;
    if (c.truncated?.includes(side)) return 'withheld';
    out[side] = isObject(c[side]) ? withoutFields(c[side], inner) : c[side];
  }
  // What differed lay only in the fields taken out.
  return sameJson(out.old, out.new) ? undefined : out;
}

/**
 * The changes a reader is shown: nothing of a field hidden from them (`hidden`, their roles'
 * hiddenFields — no entry at or inside one, and none inside an object value either), and only
 * the pointer of a field whose values are withheld from them (`withheld`: the staff user
 * fields, to an outer user).
 */
export function readableChanges(changes: readonly AuditChange[], hidden: readonly string[], withheld: readonly string[]): AuditChange[] {
  const out: AuditChange[] = [];
  for (const c of changes) {
    const shown = without(c, hidden);
    if (shown === undefined) continue;
    if (shown === 'withheld') {
      out.push({ pointer: c.pointer, redacted: true });
      continue;
    }
    const told = without(shown, withheld);
    out.push(told === undefined || told === 'withheld' ? { pointer: c.pointer, redacted: true } : told);
  }
  return out;
}
