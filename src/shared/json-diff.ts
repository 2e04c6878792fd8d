/**
 * Comparing records as JSON values: what the store's edit rules judge (which fields an update
 * changes) and what the audit trail keeps (old → new per changed field) are the same changes.
 */

import { escapeSegment } from './pointer.ts';

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Equal as JSON values, whatever the order of object keys (an absent field equals an absent one).
 * @example sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }) // true
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((v, i) => sameJson(v, (b as unknown[])[i]));
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => sameJson((a as Data)[k], (b as Data)[k]));
}

/**
 * The fields that differ between two records, as pointers to the innermost object properties
 * that changed, in key order: objects are entered (also one added or removed whole), arrays
 * and scalars compared whole; an empty object filled in or emptied is a change of its own.
 * Keys are escaped (RFC 6901): a key `a/b` is the pointer `/a~1b`.
 * @example changedPointers({ c: { a: 1, b: 2 } }, { c: { b: 3, a: 1 }, d: 'x' }) // ['/c/b', '/d']
 */
export function changedPointers(before: unknown, after: unknown, at = ''): string[] {
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const out: string[] = [];
  for (const key of [...new Set([...Object.keys(b), ...Object.keys(a)])].sort()) {
    if (sameJson(b[key], a[key])) continue;
    const pointer = `${at}/${escapeSegment(key)}`;
    const nested =
      (isObject(b[key]) || b[key] === undefined) && (isObject(a[key]) || a[key] === undefined)
        ? changedPointers(b[key], a[key], pointer)
        : [];
    out.push(...(nested.length ? nested : [pointer]));
  }
  return out;
}
