/**
 * The fields of a record schema as a flat list, and the changes between two such lists —
 * what `npm run defs:diff` reports and what `npm run check -- --base` asks migrations for.
 * A field is named by its JSON pointer (`/bank/account`); the items of an array of objects
 * by `*` (`/founders/*\/name`), since stored array items have no field names of their own.
 */
import { escapeSegment } from '../../shared/pointer.ts';

/** What the diff needs to know about one field of a record schema. */
export interface FieldShape {
  pointer: string;
  /** Where the field is declared in the schema file (`/properties/bank/properties/account`). */
  schemaPointer: string;
  /** `string`, `integer`, `object`, `array of string`, … (`any` when the schema names none). */
  type: string;
  format: string | undefined;
  /** The closed list of allowed values (`enum` or `oneOf`/`anyOf` of `const`), when there is one. */
  values: string[] | undefined;
  required: boolean;
  /** The schema's own `default`, if any (a migration's `default` step can reuse it). */
  default: unknown;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOf(node: Node): string {
  const types = (Array.isArray(node.type) ? node.type : node.type ? [node.type] : []).filter((t) => t !== 'null');
  const own = types.length ? types.map(String).join(' or ') : isNode(node.properties) ? 'object' : 'any';
  if (own !== 'array') return own;
  const items = isNode(node.items) ? node.items : {};
  return `array of ${typeOf(items)}`;
}

function valuesOf(node: Node): string[] | undefined {
  const source = node.type === 'array' && isNode(node.items) ? node.items : node;
  if (Array.isArray(source.enum)) return source.enum.map(String);
  const options = Array.isArray(source.oneOf) ? source.oneOf : Array.isArray(source.anyOf) ? source.anyOf : undefined;
  const consts = options?.filter((o): o is Node => isNode(o) && 'const' in o).map((o) => String(o.const));
  return consts?.length ? consts : undefined;
}

function collect(node: Node, pointer: string, schemaPointer: string, out: Map<string, FieldShape>): void {
  const properties = isNode(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
  for (const [key, child] of Object.entries(properties)) {
    if (!isNode(child)) continue;
    const at = `${pointer}/${escapeSegment(key)}`;
    const schemaAt = `${schemaPointer}/properties/${escapeSegment(key)}`;
    out.set(at, {
      pointer: at,
      schemaPointer: schemaAt,
      type: typeOf(child),
      format: typeof child.format === 'string' ? child.format : undefined,
      values: valuesOf(child),
      required: required.has(key),
      default: child.default,
    });
    collect(child, at, schemaAt, out);
    if (isNode(child.items)) collect(child.items, `${at}/*`, `${schemaAt}/items`, out);
  }
}

/**
 * Every field a record schema declares under `properties` (nested objects and the objects of
 * arrays included), keyed by pointer, in declaration order.
 * @example recordFields({ properties: { a: { type: 'string' } }, required: ['a'] }).get('/a')?.required // true
 */
export function recordFields(schema: unknown): Map<string, FieldShape> {
  const out = new Map<string, FieldShape>();
  if (isNode(schema)) collect(schema, '', '', out);
  return out;
}

/** The pointer of the object that holds `pointer` (`''` for a top-level field). */
export const parentPointer = (pointer: string): string => pointer.slice(0, pointer.lastIndexOf('/'));

/** Whether a field paired with another went to a different object (a move, not a rename). */
export const isMove = (from: string, to: string): boolean => parentPointer(from) !== parentPointer(to);

/** Whether `outer` is `inner` itself or one of the objects that hold it. */
export const coversPointer = (outer: string, inner: string): boolean =>
  inner === outer || inner.startsWith(`${outer}/`);

/** A change of one field between two schemas, before it is worded. */
export type FieldChange =
  | { kind: 'field-added'; field: FieldShape }
  | { kind: 'field-removed'; field: FieldShape }
  | { kind: 'field-renamed'; field: FieldShape; to: FieldShape }
  | { kind: 'field-retyped' | 'values-limited'; field: FieldShape; was: FieldShape }
  | { kind: 'value-added' | 'value-removed'; field: FieldShape; value: string }
  | { kind: 'required-added' | 'required-removed'; field: FieldShape }
  | { kind: 'format-changed'; field: FieldShape; was: FieldShape };

/** Only the outermost of the pointers (a removed object stands for its removed fields). */
const outermost = (pointers: string[]): string[] =>
  pointers.filter((p) => !pointers.some((q) => q !== p && coversPointer(q, p)));

/**
 * Pairs removed fields with added ones that most likely hold the same data: first a field of
 * the same name and type in another object (a move), then the one added field of the same type
 * in the same object (a rename) — each only when the pairing is unambiguous (one of each).
 */
function renames(removed: FieldShape[], added: FieldShape[]): Map<string, FieldShape> {
  const pairs = new Map<string, FieldShape>();
  const leaf = (f: FieldShape) => `${f.pointer.slice(f.pointer.lastIndexOf('/') + 1)}\u0000${f.type}`;
  const sibling = (f: FieldShape) => `${parentPointer(f.pointer)}\u0000${f.type}`;
  for (const key of [leaf, sibling]) {
    const taken = new Set([...pairs.values()].map((f) => f.pointer));
    const gone = removed.filter((f) => !pairs.has(f.pointer));
    const come = added.filter((f) => !taken.has(f.pointer));
    for (const field of gone) {
      const sameRemoved = gone.filter((f) => key(f) === key(field));
      const sameAdded = come.filter((f) => key(f) === key(field));
      if (sameRemoved.length === 1 && sameAdded.length === 1) pairs.set(field.pointer, sameAdded[0]!);
    }
  }
  return pairs;
}

/**
 * What changed between two record schemas, field by field: added, removed (or, heuristically,
 * renamed), retyped, enum values, required, format. A removed or added object is one change,
 * not one per field inside it.
 * @example fieldChanges(oldSchema, newSchema) // [{ kind: 'field-renamed', field: {pointer: '/director'…}, to: {pointer: '/directorName'…} }]
 */
export function fieldChanges(baseSchema: unknown, headSchema: unknown): FieldChange[] {
  const base = recordFields(baseSchema);
  const head = recordFields(headSchema);
  const removed = outermost([...base.keys()].filter((p) => !head.has(p))).map((p) => base.get(p)!);
  const added = outermost([...head.keys()].filter((p) => !base.has(p))).map((p) => head.get(p)!);
  const paired = renames(removed, added);
  const renamedTo = new Map([...paired].map(([from, to]) => [to.pointer, base.get(from)!]));
  const out: FieldChange[] = [];
  for (const field of removed) {
    const to = paired.get(field.pointer);
    out.push(to ? { kind: 'field-renamed', field, to } : { kind: 'field-removed', field });
  }
  for (const field of added) {
    const from = renamedTo.get(field.pointer);
    if (!from) out.push({ kind: 'field-added', field });
    // A new required field is missing from every stored record, unless it carries on a required one.
    if (field.required && !from?.required) out.push({ kind: 'required-added', field });
  }
  for (const [pointer, now] of head) {
    const was = base.get(pointer);
    if (!was) continue;
    if (was.type !== now.type) out.push({ kind: 'field-retyped', field: now, was });
    if (now.values && !was.values) out.push({ kind: 'values-limited', field: now, was });
    for (const value of was.values ?? []) {
      if (now.values && !now.values.includes(value)) out.push({ kind: 'value-removed', field: now, value });
    }
    for (const value of now.values ?? []) {
      if (was.values && !was.values.includes(value)) out.push({ kind: 'value-added', field: now, value });
    }
    if (now.required !== was.required)
      out.push({ kind: now.required ? 'required-added' : 'required-removed', field: now });
    if (now.format !== was.format) out.push({ kind: 'format-changed', field: now, was });
  }
  return out;
}

/**
 * Whether a type change can lose or reject stored data: every change but widening an
 * integer to a number (or to a type that also admits null — the diff ignores null).
 */
export const isNarrowing = (was: string, now: string): boolean =>
  !(was === 'integer' && now === 'number') && !(was === 'array of integer' && now === 'array of number');
