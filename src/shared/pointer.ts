/**
 * JSON Pointers (RFC 6901) — the one home of how a field is named by a path (`/customer/pnfl`):
 * splitting and escaping segments, reading and writing a value, and the PostgreSQL expression
 * that reads the same field from a record's `data` column. Definitions, the server, the engine
 * and the forms all name fields this way, so they read them through these functions.
 * Pure and isomorphic; imports nothing.
 */

type Data = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Escapes one segment for a pointer: `~` → `~0`, then `/` → `~1` (the RFC's order).
 * @example escapeSegment('a/b~c') // 'a~1b~0c'
 */
export const escapeSegment = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Unescapes one segment: `~1` → `/`, then `~0` → `~` (so `~01` stays `~1`).
 * @example unescapeSegment('a~1b~0c') // 'a/b~c'
 */
export const unescapeSegment = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The unescaped segments of a pointer; the root `''` has none.
 * @example pointerSegments('/customer/pnfl') // ['customer', 'pnfl']
 */
export const pointerSegments = (pointer: string): string[] => pointer.split('/').slice(1).map(unescapeSegment);

/**
 * The pointer of these segments, each escaped; no segments is the root `''`.
 * @example toPointer(['participants', 0, 'a/b']) // '/participants/0/a~1b'
 */
export const toPointer = (segments: ReadonlyArray<string | number>): string =>
  segments.map((s) => `/${escapeSegment(String(s))}`).join('');

/**
 * A record field's value: follows plain objects only, as lists, rules and exports address
 * fields (array items are not fields). Undefined when any step is missing or not an object.
 * @example valueAt({ customer: { pnfl: '1' } }, '/customer/pnfl') // '1'
 */
export function valueAt(record: unknown, pointer: string): unknown {
  let node = record;
  for (const segment of pointerSegments(pointer)) {
    if (!isPlainObject(node)) return undefined;
    node = node[segment];
  }
  return node;
}

/**
 * The value at a pointer through objects and arrays (`/participants/0/name`), as forms and
 * looked-up rows are read. Undefined when any step is missing or not an object or array.
 * @example getAtPointer({ a: [{ b: 1 }] }, '/a/0/b') // 1
 */
export function getAtPointer(data: unknown, pointer: string): unknown {
  let node = data;
  for (const segment of pointerSegments(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Data)[segment];
  }
  return node;
}

/**
 * The object at a pointer inside `root`, creating empty objects where a step is missing
 * (undefined or null) — in place: the holder a writer then sets a key of.
 * @example const root = {}; objectAt(root, '/a/b').c = 1; // root: { a: { b: { c: 1 } } }
 */
export function objectAt(root: Data, pointer: string): Data {
  let node = root;
  for (const segment of pointerSegments(pointer)) {
    node[segment] ??= {};
    node = node[segment] as Data;
  }
  return node;
}

/**
 * Sets the value at a (non-root) pointer in place, creating objects on the way.
 * @example const data = {}; setAt(data, '/customer/pnfl', '1'); // data: { customer: { pnfl: '1' } }
 */
export function setAt(root: Data, pointer: string, value: unknown): void {
  const segments = pointerSegments(pointer);
  if (!segments.length) throw new Error('setAt: the root cannot be set');
  objectAt(root, toPointer(segments.slice(0, -1)))[segments.at(-1)!] = value;
}

/**
 * One element of a PostgreSQL text-array literal: bare when that is unambiguous, otherwise
 * double-quoted with `"` and `\` backslash-escaped (an empty element, `NULL`, whitespace and
 * the literal's own delimiters `{}`, `,` would otherwise change what the array holds).
 */
function arrayElement(segment: string): string {
  const bare = segment !== '' && !/^null$/i.test(segment) && !/[{},"\\\s]/.test(segment);
  return bare ? segment : `"${segment.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The pointer as a SQL string literal of a text array, the path operand of `#>`/`#>>`.
 * `'` is doubled, so no segment can end the literal (standard_conforming_strings, the default).
 * @example sqlPath('/pharmacy/stir') // "'{pharmacy,stir}'"
 * @example sqlPath("/a b/it's") // `'{"a b",it''s}'`
 */
export const sqlPath = (pointer: string): string =>
  `'{${pointerSegments(pointer).map(arrayElement).join(',').replace(/'/g, "''")}}'`;

/**
 * SQL reading the field at `pointer` of a jsonb column as text (`#>>`), parenthesised so it
 * can be compared or cast as it stands.
 * @example sqlText('/pharmacy/stir') // "(data #>> '{pharmacy,stir}')"
 * @example sqlText('/unit', 'card.data') // "(card.data #>> '{unit}')"
 */
export const sqlText = (pointer: string, source = 'data'): string => `(${source} #>> ${sqlPath(pointer)})`;

/**
 * SQL reading the field at `pointer` of a jsonb column as jsonb (`#>`), parenthesised.
 * @example sqlJson('/permissions') // "(data #> '{permissions}')"
 */
export const sqlJson = (pointer: string, source = 'data'): string => `(${source} #> ${sqlPath(pointer)})`;
