/**
 * Record fields a user may not read (a role's `hiddenFields`, as CASL "cannot read" field
 * rules): the pointer arithmetic the server uses to leave them out of every answer and to keep
 * their stored values on updates, and the client to leave them out of lists and forms. Pointers
 * name object properties (`/consumer/pinfl`); array items are not addressable.
 */

import { pointerSegments, valueAt } from './pointer.ts';

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether the field at `pointer` is hidden: it is one of `hidden`, or lies inside one (a hidden
 * `/consumer` hides `/consumer/pinfl`).
 * @example isHiddenField(['/consumer'], '/consumer/pinfl') // true
 */
export function isHiddenField(hidden: readonly string[], pointer: string): boolean {
  return hidden.some((h) => pointer === h || pointer.startsWith(`${h}/`));
}

/**
 * Whether reading the field at `pointer` would show something hidden: it is hidden, or it holds
 * a hidden field (the whole `/consumer` holds a hidden `/consumer/pinfl`).
 * @example touchesHiddenField(['/consumer/pinfl'], '/consumer') // true
 */
export function touchesHiddenField(hidden: readonly string[], pointer: string): boolean {
  return isHiddenField(hidden, pointer) || hidden.some((h) => h.startsWith(`${pointer}/`));
}

/**
 * A copy of a record without the fields at `pointers`; the objects on the way are copied, so
 * the record itself is not changed.
 * @example withoutFields({ a: 1, c: { p: '3120…', n: 'Ali' } }, ['/c/p']) // { a: 1, c: { n: 'Ali' } }
 */
export function withoutFields<T extends Data>(record: T, pointers: readonly string[]): T {
  let out: Data = record;
  for (const pointer of pointers) out = removeAt(out, pointerSegments(pointer));
  return out as T;
}

function removeAt(node: Data, segments: string[]): Data {
  const [head, ...rest] = segments;
  if (head === undefined || !(head in node)) return node;
  const copy = { ...node };
  if (!rest.length) delete copy[head];
  else if (isObject(node[head])) copy[head] = removeAt(node[head], rest);
  return copy;
}

/**
 * `input` (an update from a user who cannot see these fields) with the stored value put back
 * at every pointer the input leaves out, creating the objects on the way where the input has
 * none — so that such an update keeps, not wipes, what the user never saw. Where the input
 * puts something other than an object on the way (null, a text), nothing is put back: that
 * update changes the hidden field, and is judged so.
 * @example withKeptFields({ c: { n: 'Ali' } }, { c: { n: 'Vali', p: '3120…' } }, ['/c/p']) // { c: { n: 'Ali', p: '3120…' } }
 */
export function withKeptFields(input: unknown, stored: Data, pointers: readonly string[]): unknown {
  if (!isObject(input)) return input;
  let out: Data = input;
  for (const pointer of pointers) {
    const value = valueAt(stored, pointer);
    if (value !== undefined) out = keepAt(out, pointerSegments(pointer), value);
  }
  return out;
}

function keepAt(node: Data, segments: string[], value: unknown): Data {
  const [head, ...rest] = segments;
  if (head === undefined) return node;
  if (!rest.length) return node[head] === undefined ? { ...node, [head]: structuredClone(value) } : node;
  const child = node[head];
  if (child === undefined) return { ...node, [head]: keepAt({}, rest, value) };
  return isObject(child) ? { ...node, [head]: keepAt(child, rest, value) } : node;
}
