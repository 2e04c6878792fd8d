import type { JSONSchema7 } from 'json-schema';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { EntityTable } from '../db/entity-table.ts';
import { SYSTEM_FIELDS, resolveFieldSchema } from '../../shared/field-schema.ts';
import { ApiError, badInput } from '../errors.ts';
import { valueAt } from '../../shared/pointer.ts';

// What the store takes from a client's input: the schema's defaults, no server-owned fields,
// and a unique-index violation told as the field it is about.

/** Defaults of a schema: `default` values, and nested objects that have some. */
export function defaultsOf(schema: JSONSchema7): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (typeof child !== 'object') continue;
    if (child.default !== undefined) out[name] = structuredClone(child.default);
    else if (child.type === 'object') {
      const nested = defaultsOf(child);
      if (Object.keys(nested).length) out[name] = nested;
    }
  }
  return out;
}

/** Input without server-owned fields: they are never taken from a client. */
export function withoutSystemFields(input: unknown): { data: Record<string, unknown>; version: unknown } {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { data: input as never, version: undefined };
  const data: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  const version = data.version;
  for (const f of SYSTEM_FIELDS) delete data[f];
  return { data, version };
}

/**
 * A unique-index violation becomes a 400 naming the field; anything else is rethrown.
 * Both drivers report the SQLSTATE as `code`; the index name is in `constraint` (pg) or the message.
 */
export function rethrowUnique(error: unknown, c: { table: EntityTable; def: EntityDefinition }): never {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') {
    for (const [index, pointer] of c.table.uniqueIndexes) {
      if (e.constraint === index || e.message?.includes(index)) {
        const title = resolveFieldSchema(c.def.schema, pointer)?.title;
        throw badInput([{ pointer, key: 'validation.unique', params: { fieldKey: title ?? pointer } }]);
      }
    }
  }
  throw error;
}

/**
 * A duplicate's refusal names the record that already holds the value (`details.existing`:
 * `{pointer: id}`) when `find` answers its id — only for a caller who may read that record —
 * so a form can link to it instead of leaving the user to search. Anything else is rethrown.
 */
export async function withExistingRecord(
  error: unknown,
  data: unknown,
  find: ((pointer: string, value: unknown) => Promise<number | undefined>) | undefined,
): Promise<never> {
  const unique = error instanceof ApiError && error.fieldErrors?.length === 1 ? error.fieldErrors[0]! : undefined;
  if (find && unique?.key === 'validation.unique') {
    const id = await find(unique.pointer, valueAt(data, unique.pointer)).catch(() => undefined);
    if (id !== undefined)
      throw new ApiError(400, 'errors.invalidInput', {
        fieldErrors: [unique],
        details: { existing: { [unique.pointer]: id } },
      });
  }
  throw error;
}
