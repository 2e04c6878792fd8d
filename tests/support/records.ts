import type { JSONSchema7 } from 'json-schema';
import { deref, SYSTEM_FIELDS } from '../../src/shared/field-schema.ts';

/** Reads a JSON pointer from a value. */
export function at(value: unknown, pointer: string): unknown {
  let node = value;
  for (const seg of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

/** A copy of `value` with the field at `pointer` removed or replaced. */
export function withField(
  value: Record<string, unknown>,
  pointer: string,
  replacement?: unknown,
): Record<string, unknown> {
  const copy = structuredClone(value);
  const segs = pointer.split('/').slice(1);
  let node = copy as Record<string, unknown>;
  for (const seg of segs.slice(0, -1)) {
    if (!node[seg] || typeof node[seg] !== 'object') node[seg] = {};
    node = node[seg] as Record<string, unknown>;
  }
  if (replacement === undefined) delete node[segs.at(-1)!];
  else node[segs.at(-1)!] = replacement;
  return copy;
}

export const dataOf = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([k]) => !(SYSTEM_FIELDS as readonly string[]).includes(k)));

/** Whether `pointer` is in a top-level field the server writes (`readOnly: true` in the record schema). */
export const serverWritten = (schema: JSONSchema7, pointer: string): boolean => {
  const field = schema.properties?.[pointer.split('/')[1] ?? ''];
  return typeof field === 'object' && field.readOnly === true;
};

/**
 * A record's data without the fields the server writes (`readOnly: true`: a capability computes
 * them on every save, whatever is sent): what a client's input is compared with.
 */
export const withoutServerWritten = (schema: JSONSchema7, data: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(data).filter(([k]) => !serverWritten(schema, `/${k}`)));

/**
 * The top-level fields a manifest's `prefill` fills on create because `input` leaves them empty
 * (absent, "" or []): the server copies them from the record the rule names, so they are not
 * stored as sent.
 */
export const prefilledFields = (
  manifest: { prefill?: Array<{ copy: Record<string, string> }> },
  input: Record<string, unknown>,
): string[] =>
  (manifest.prefill ?? [])
    .flatMap((rule) => Object.keys(rule.copy))
    .map((pointer) => pointer.split('/')[1]!)
    .filter((name) => {
      const v = input[name];
      return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
    });

/** Pointers of required fields present in `sample` (top level and inside present objects). */
export function requiredPointers(root: JSONSchema7, sample: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (node: JSONSchema7 | undefined, value: unknown, prefix: string) => {
    const s = deref(root, node);
    if (!s || !value || typeof value !== 'object' || Array.isArray(value)) return;
    for (const name of s.required ?? []) if (name in value) out.push(`${prefix}/${name}`);
    for (const [name, child] of Object.entries(s.properties ?? {}))
      walk(child as JSONSchema7, (value as Record<string, unknown>)[name], `${prefix}/${name}`);
  };
  walk(root, sample, '');
  return out;
}

/** For every scalar/object/array field of the schema (not inside arrays): a value of the wrong type. */
export function brokenTypes(root: JSONSchema7): Array<{ pointer: string; value: unknown }> {
  const out: Array<{ pointer: string; value: unknown }> = [];
  const walk = (node: JSONSchema7 | undefined, prefix: string) => {
    const s = deref(root, node);
    for (const [name, child] of Object.entries(s?.properties ?? {})) {
      const c = deref(root, child as JSONSchema7);
      const type = Array.isArray(c?.type) ? c!.type.find((t) => t !== 'null') : c?.type;
      const pointer = `${prefix}/${name}`;
      if (type === 'string') out.push({ pointer, value: 12345 });
      else if (type === 'number' || type === 'integer') out.push({ pointer, value: 'not-a-number' });
      else if (type === 'boolean') out.push({ pointer, value: 'yes' });
      else if (type === 'array') out.push({ pointer, value: 'not-a-list' });
      else if (type === 'object') {
        out.push({ pointer, value: 'not-an-object' });
        walk(c, pointer);
      }
    }
  };
  walk(root, '');
  return out;
}

/** PostgreSQL's order: ascending puts nulls last, descending first; ties by id in the last key's direction. */
export function expectedOrder<Row extends Record<string, unknown> & { id: number }>(
  rows: Row[],
  sort: Array<{ field: string; desc: boolean }>,
): Row[] {
  const cmp = (a: unknown, b: unknown): number => {
    if (a === b) return 0;
    if (a === undefined || a === null) return 1;
    if (b === undefined || b === null) return -1;
    return (a as number) < (b as number) ? -1 : 1;
  };
  const last = sort[sort.length - 1]!;
  return [...rows].sort((x, y) => {
    for (const s of sort) {
      const c = cmp(at(x, s.field), at(y, s.field));
      if (c) return s.desc ? -c : c;
    }
    return last.desc ? y.id - x.id : x.id - y.id;
  });
}
