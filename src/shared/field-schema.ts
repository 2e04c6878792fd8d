/**
 * The schema of a record field named by a JSON pointer: system fields, `properties`, local
 * `$ref`s. Shared by the checker, the server's table and query builders, and the formats.
 */
import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import { pointerSegments } from './pointer.ts';

/** Fields the server owns on every record (see schemas/_meta/system-fields.schema.json). */
export const SYSTEM_FIELDS = ['id', 'version', 'status', 'owner', 'createdAt', 'updatedAt'] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number];

/** Schemas of the system fields, for pointer resolution (types only). */
const systemFieldSchemas: Record<SystemField, JSONSchema7> = {
  id: { type: 'integer' },
  version: { type: 'integer' },
  status: { type: 'string' },
  owner: { type: 'string' },
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
};

/** Follows a local `$ref` (`#/definitions/x`) inside the root schema. */
export function deref(root: JSONSchema7, node: JSONSchema7Definition | undefined): JSONSchema7 | undefined {
  let current = node;
  for (let guard = 0; guard < 16 && current && typeof current === 'object' && current.$ref; guard++) {
    const target = current.$ref;
    if (!target.startsWith('#/')) return undefined;
    let found: unknown = root;
    for (const seg of pointerSegments(target.slice(1))) found = (found as Record<string, unknown> | undefined)?.[seg];
    current = found as JSONSchema7Definition | undefined;
  }
  return current && typeof current === 'object' ? current : undefined;
}

/**
 * Resolves a record pointer (`/customer/surname`, `/status`) to the schema of that field:
 * system fields first, then nested `properties`. Returns undefined when the field does not
 * exist. Array items are not addressable: lists and filters work on scalar fields.
 */
export function resolveFieldSchema(root: JSONSchema7, pointer: string): JSONSchema7 | undefined {
  const segments = pointerSegments(pointer);
  if (segments.length === 1 && (SYSTEM_FIELDS as readonly string[]).includes(segments[0]!)) {
    return systemFieldSchemas[segments[0] as SystemField];
  }
  let node: JSONSchema7 | undefined = root;
  for (const segment of segments) {
    node = deref(root, node?.properties?.[segment]);
    if (!node) return undefined;
  }
  return node;
}

/** The JSON type of a field schema (first non-null type). */
export function scalarType(schema: JSONSchema7): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return types.find((t) => t !== 'null');
}

/** Whether `pointer` names a system field. */
export const isSystemPointer = (pointer: string): boolean =>
  pointerSegments(pointer).length === 1 && (SYSTEM_FIELDS as readonly string[]).includes(pointerSegments(pointer)[0]!);
