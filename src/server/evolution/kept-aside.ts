/**
 * Fields the record schema no longer knows: taken out of a record's data and kept aside
 * (the entity table's `kept_aside` column, pointer → value) rather than dropped, so that
 * nothing stored is ever silently cut down. They are not served as fields, an update leaves
 * them alone, and the data-health screen lists them until a migration says what to do with
 * them (its steps see them back in place).
 */
import type { JSONSchema7 } from 'json-schema';
import { deref } from '../../shared/field-schema.ts';
import { escapeSegment, setAt, valueAt } from '../../shared/pointer.ts';

type Data = Record<string, unknown>;

/** Kept-aside values by the pointer they were stored at. */
export type KeptAside = Record<string, unknown>;

const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The properties an object schema knows, its conditional branches' included; undefined when it is open. */
function knownProperties(root: JSONSchema7, schema: JSONSchema7): Map<string, JSONSchema7 | undefined> | undefined {
  if (schema.additionalProperties !== false) return undefined;
  const known = new Map<string, JSONSchema7 | undefined>();
  for (const node of [schema, schema.then, schema.else, ...(schema.allOf ?? []), ...(schema.oneOf ?? [])]) {
    const branch = deref(root, node);
    for (const [name, child] of Object.entries(branch?.properties ?? {})) {
      if (!known.get(name)) known.set(name, deref(root, child));
    }
  }
  return known;
}

function split(
  root: JSONSchema7,
  schema: JSONSchema7 | undefined,
  value: unknown,
  at: string,
  kept: KeptAside,
): unknown {
  if (!schema) return value;
  if (Array.isArray(value)) {
    const items = !Array.isArray(schema.items) ? deref(root, schema.items) : undefined;
    return items ? value.map((v, i) => split(root, items, v, `${at}/${i}`, kept)) : value;
  }
  if (!isObject(value)) return value;
  const known = knownProperties(root, schema);
  const out: Data = {};
  for (const [name, v] of Object.entries(value)) {
    const pointer = `${at}/${escapeSegment(name)}`;
    if (known && !known.has(name)) kept[pointer] = v;
    else out[name] = split(root, known?.get(name), v, pointer, kept);
  }
  return out;
}

/**
 * The record's data without the fields `schema` does not know, and those fields by pointer.
 * @example splitKeptAside(schema, { name: 'A', director: 'B' }) // { data: { name: 'A' }, kept: { '/director': 'B' } }
 */
export function splitKeptAside(schema: JSONSchema7, data: Data): { data: Data; kept: KeptAside } {
  const kept: KeptAside = {};
  return { data: split(schema, schema, data, '', kept) as Data, kept };
}

/**
 * The data with the kept-aside fields put back where they were stored, for a migration's
 * steps to find them; a field whose place the data has filled since stays kept (`left`).
 * @example withKeptAside({ name: 'A' }, { '/director': 'B' }) // { data: { name: 'A', director: 'B' }, left: {} }
 */
export function withKeptAside(data: Data, kept: KeptAside): { data: Data; left: KeptAside } {
  const out = structuredClone(data);
  const left: KeptAside = {};
  for (const [pointer, value] of Object.entries(kept)) {
    if (valueAt(out, pointer) === undefined) setAt(out, pointer, structuredClone(value));
    else left[pointer] = value;
  }
  return { data: out, left };
}
