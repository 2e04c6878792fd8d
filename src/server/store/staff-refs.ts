import type { JSONSchema7 } from 'json-schema';
import type { Queryable } from '../db/database.ts';
import type { DefinitionRegistry } from '../../definitions/registry.ts';
import type { FieldProblem } from '../../shared/validation/field-errors.ts';
import { badInput } from '../errors.ts';
import { findStaffUserFields, valuesAt } from './record-schema.ts';
import type { EntityStore } from './entity-store.ts';
import type { StaffDirectory } from './staff-directory.ts';

/**
 * The problems of the `staffUser` fields of `input` under `schema`: every id there must be a
 * staff user who may sign in (400 `validation.staffUser` on that field). `base` goes before
 * the pointers (`/payload` for a transition's input). Values of the wrong type are left to the
 * schema check.
 */
export async function staffUserProblems(
  directory: StaffDirectory,
  schema: JSONSchema7,
  input: unknown,
  base = '',
  on?: Queryable,
  before?: unknown,
): Promise<FieldProblem[]> {
  if (!input || typeof input !== 'object') return [];
  // An id the record already held stays acceptable (its executor may since have left).
  const kept = new Set(
    before && typeof before === 'object'
      ? findStaffUserFields(schema)
          .flatMap((f) => valuesAt(before, f.path))
          .map((v) => `${v.pointer}=${String(v.value)}`)
      : [],
  );
  const wanted = findStaffUserFields(schema)
    .flatMap((f) => valuesAt(input, f.path))
    .filter(
      (v) => Number.isSafeInteger(v.value) && (v.value as number) > 0 && !kept.has(`${v.pointer}=${String(v.value)}`),
    )
    .map((v) => ({ pointer: `${base}${v.pointer}`, id: v.value as number }));
  if (!wanted.length) return [];
  const found = new Set((await directory.byIds([...new Set(wanted.map((w) => w.id))], on)).map((u) => Number(u.id)));
  return wanted
    .filter((w) => !found.has(w.id))
    .map((w) => ({ pointer: w.pointer, key: 'validation.staffUser', params: {} }));
}

/**
 * Wraps the store so that every create and update first checks its `staffUser` fields
 * against the staff directory: an outer user, a user who may not sign in or an unknown id is
 * refused with 400 and nothing is written. An update is judged on the ids it changes.
 * @example app.decorate('store', withStaffUsers(store, directory, registry))
 */
export function withStaffUsers(
  store: EntityStore,
  directory: StaffDirectory | undefined,
  registry: DefinitionRegistry,
): EntityStore {
  if (!directory) return store;
  const schemas = new Map<string, JSONSchema7>();
  for (const def of registry.entities.values())
    if (findStaffUserFields(def.schema).length) schemas.set(def.id, def.schema);
  const check = async (entity: string, input: unknown, on?: Queryable, before?: unknown): Promise<void> => {
    const schema = schemas.get(entity);
    if (!schema) return;
    const problems = await staffUserProblems(directory, schema, input, '', on, before);
    if (problems.length) throw badInput(problems);
  };
  return {
    ...store,
    async create(entity, input, actor, options) {
      await check(entity, input, options?.tx);
      return store.create(entity, input, actor, options);
    },
    async update(entity, id, input, actor) {
      // Only for a caller who may update and see the record: anyone else gets the store's own
      // refusal (403, 404) unchanged, in its order.
      const subject = registry.entities.get(entity)?.manifest.subject;
      const before =
        schemas.has(entity) && subject && actor.ability.can('update', subject)
          ? await store.get(entity, id, actor).catch(() => undefined)
          : undefined;
      if (before) await check(entity, input, undefined, before);
      return store.update(entity, id, input, actor);
    },
  };
}
