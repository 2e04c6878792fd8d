/**
 * Client input never sets a field the server writes (a schema's `readOnly: true`): on create
 * such a value is ignored, on update the stored one is kept — as JSON Schema says of readOnly
 * ("attempts to modify it are expected to be ignored or rejected"). An applicant cannot file a
 * request already "seen" with grounds of their own, nor a report already "consolidated". The
 * server's own writes (capabilities' computed fields, transitions, merges) go through the store
 * directly and are not touched; the routes that take a client's record call these.
 */
import type { JSONSchema7 } from 'json-schema';
import { findServerOwnedFields } from './record-schema.ts';
import { toPointer, valueAt } from '../../shared/pointer.ts';

type Data = Record<string, unknown>;
const cache = new WeakMap<object, Array<{ path: string[] }>>();
const ownedOf = (schema: JSONSchema7) => {
  let owned = cache.get(schema);
  if (!owned) cache.set(schema, (owned = findServerOwnedFields(schema)));
  return owned;
};

/** A copy of `input` whose server-owned fields are those of `stored` (absent when `stored` has none). */
export function withServerOwnedFrom(schema: JSONSchema7, input: unknown, stored: Data = {}): unknown {
  const owned = ownedOf(schema);
  if (!owned.length || !input || typeof input !== 'object' || Array.isArray(input)) return input;
  const out = structuredClone(input) as Data;
  for (const { path } of owned) {
    const kept = valueAt(stored, toPointer(path));
    let at: Data | undefined = out;
    for (const key of path.slice(0, -1)) {
      const next: unknown = at[key];
      if (!next || typeof next !== 'object' || Array.isArray(next)) {
        if (kept === undefined) {
          at = undefined;
          break;
        }
        at[key] = {};
      }
      at = at[key] as Data;
    }
    if (!at) continue;
    const last = path[path.length - 1]!;
    if (kept === undefined) delete at[last];
    else at[last] = structuredClone(kept);
  }
  return out;
}
