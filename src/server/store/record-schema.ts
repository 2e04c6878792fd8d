import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import { deref } from '../../shared/field-schema.ts';

/** A field holding reference-list ids, found by walking the record schema. */
export interface ReferenceField {
  /** Path segments; `*` stands for any array index. */
  path: string[];
  list: string;
  parentField: string | undefined;
}

/** A field holding uploaded file ids (`"file": true`). */
export interface FileField {
  path: string[];
}

/** A field holding the id of another entity's record (`entityRef: {entity}`). */
export interface EntityRefField {
  path: string[];
  entity: string;
}

type Annotated = JSONSchema7 & {
  reference?: { list: string; parentField?: string };
  file?: boolean;
  entityRef?: { entity: string };
  staffUser?: boolean;
};

/** Walks a record schema and calls `visit` for every property schema with its path. */
function walk(
  root: JSONSchema7,
  node: JSONSchema7Definition | undefined,
  path: string[],
  visit: (s: Annotated, path: string[]) => void,
): void {
  const schema = deref(root, node) as Annotated | undefined;
  if (!schema) return;
  visit(schema, path);
  for (const [name, child] of Object.entries(schema.properties ?? {})) walk(root, child, [...path, name], visit);
  if (schema.items && !Array.isArray(schema.items)) walk(root, schema.items, [...path, '*'], visit);
  for (const branch of [schema.then, schema.else, ...(schema.allOf ?? [])]) {
    if (branch && typeof branch === 'object') {
      for (const [name, child] of Object.entries(branch.properties ?? {})) walk(root, child, [...path, name], visit);
    }
  }
}

export function findReferenceFields(root: JSONSchema7): ReferenceField[] {
  const out = new Map<string, ReferenceField>();
  walk(root, root, [], (s, path) => {
    if (s.reference) out.set(path.join('/'), { path, list: s.reference.list, parentField: s.reference.parentField });
  });
  return [...out.values()];
}

export function findEntityRefFields(root: JSONSchema7): EntityRefField[] {
  const out = new Map<string, EntityRefField>();
  walk(root, root, [], (s, path) => {
    if (s.entityRef) out.set(path.join('/'), { path, entity: s.entityRef.entity });
  });
  return [...out.values()];
}

/** Fields holding staff user ids (`staffUser: true`), with `*` for array items. */
export function findStaffUserFields(root: JSONSchema7): Array<{ path: string[] }> {
  const out = new Map<string, { path: string[] }>();
  walk(root, root, [], (s, path) => {
    if (s.staffUser) out.set(path.join('/'), { path });
  });
  return [...out.values()];
}

export function findFileFields(root: JSONSchema7): FileField[] {
  const out = new Map<string, FileField>();
  walk(root, root, [], (s, path) => {
    if (s.file) out.set(path.join('/'), { path: s.type === 'array' ? [...path, '*'] : path });
  });
  return [...out.values()];
}

/**
 * Every value at `path` in `data`, with its concrete JSON pointer and the object holding it
 * (for sibling lookups such as a district's region).
 */
export function valuesAt(
  data: unknown,
  path: string[],
): Array<{ pointer: string; value: unknown; holder: Record<string, unknown> }> {
  let frontier: Array<{ pointer: string; value: unknown; holder: Record<string, unknown> }> = [
    { pointer: '', value: data, holder: {} },
  ];
  for (const segment of path) {
    const next: typeof frontier = [];
    for (const { pointer, value } of frontier) {
      if (segment === '*') {
        if (Array.isArray(value))
          value.forEach((v, i) => next.push({ pointer: `${pointer}/${i}`, value: v, holder: {} }));
      } else if (value && typeof value === 'object' && !Array.isArray(value) && segment in value) {
        const holder = value as Record<string, unknown>;
        next.push({ pointer: `${pointer}/${segment}`, value: holder[segment], holder });
      }
    }
    frontier = next;
  }
  return frontier.filter((f) => f.value !== undefined && f.value !== null);
}

const KEEP = new Set(['type', 'properties', 'items', 'additionalProperties', 'description']);

/**
 * The schema responses are serialized with: the record schema without validation
 * keywords (a stored draft may lack required fields; serialization must not throw), with
 * local $refs inlined, closed objects so nothing unexpected can leak, plus `extra`
 * properties (the system fields).
 */
export function toResponseSchema(root: JSONSchema7, extra: Record<string, JSONSchema7>): JSONSchema7 {
  const strip = (node: JSONSchema7Definition | undefined): JSONSchema7 => {
    const schema = deref(root, node);
    if (!schema) return {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) if (KEEP.has(k)) out[k] = v;
    if (schema.properties)
      out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, strip(v)]));
    if (schema.items && !Array.isArray(schema.items)) out.items = strip(schema.items);
    if (!schema.type && !schema.properties) return {};
    return out as JSONSchema7;
  };
  const base = strip(root);
  return { ...base, properties: { ...base.properties, ...extra }, additionalProperties: false };
}

/**
 * Fields the server writes (`readOnly: true`: computed by a capability, set by a transition or
 * a merge) as paths; fields inside array items are left out (client input keeps those).
 */
export function findServerOwnedFields(root: JSONSchema7): Array<{ path: string[] }> {
  const out = new Map<string, { path: string[] }>();
  walk(root, root, [], (s, path) => {
    if ((s as JSONSchema7).readOnly === true && path.length && !path.includes('*')) out.set(path.join('/'), { path });
  });
  return [...out.values()];
}
