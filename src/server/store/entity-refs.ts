import type { Database, Queryable } from '../db/database.ts';
import type { DefinitionRegistry } from '../../definitions/registry.ts';
import type { EntityTable } from '../db/entity-table.ts';
import type { FieldProblem } from '../../shared/validation/field-errors.ts';
import { badInput } from '../errors.ts';
import { findEntityRefFields, valuesAt, type EntityRefField } from './record-schema.ts';
import type { EntityStore } from './entity-store.ts';

/**
 * Wraps the store so that every create and update first checks its `entityRef` fields: each
 * id must be a record of the named entity (400 `validation.entityRef` on that field, nothing
 * written). Existence only — whether the caller may read that record is not asked, as with
 * reference lists; values of the wrong type are left to the schema check that follows. A
 * record may not link to itself (a unit its own parent); longer cycles are not looked for
 * (the tree screen shows them without looping).
 * @example app.decorate('store', withEntityRefs(createEntityStore(…), db, registry, tables))
 */
export function withEntityRefs(
  store: EntityStore,
  db: Database,
  registry: DefinitionRegistry,
  tables: Map<string, EntityTable>,
): EntityStore {
  const fields = new Map<string, EntityRefField[]>();
  for (const def of registry.entities.values()) {
    const refs = findEntityRefFields(def.schema);
    if (refs.length) fields.set(def.id, refs);
  }

  // `on`: the caller's open transaction when there is one — a record created earlier in it (a
  // parent seeded in the same transaction) exists there, and PGlite's one connection is not
  // asked twice at once.
  const check = async (entity: string, input: unknown, selfId?: number, on: Queryable = db): Promise<void> => {
    const refs = fields.get(entity);
    if (!refs || !input || typeof input !== 'object') return;
    const wanted = refs.flatMap((ref) =>
      valuesAt(input, ref.path)
        .filter((v) => Number.isSafeInteger(v.value) && (v.value as number) > 0)
        .map((v) => ({ pointer: v.pointer, id: v.value as number, entity: ref.entity })),
    );
    const problems: FieldProblem[] = [];
    // A record cannot be its own parent (or link to itself otherwise).
    for (const w of wanted)
      if (selfId !== undefined && w.entity === entity && w.id === selfId)
        problems.push({ pointer: w.pointer, key: 'validation.entityRefSelf', params: {} });
    if (problems.length) throw badInput(problems);
    for (const target of new Set(wanted.map((w) => w.entity))) {
      const table = tables.get(target);
      const ids = wanted.filter((w) => w.entity === target).map((w) => w.id);
      const { rows } = table
        ? await on.query<{ id: number }>(`SELECT id FROM ${table.table} WHERE id = ANY($1::bigint[])`, [ids])
        : { rows: [] };
      const found = new Set(rows.map((r) => Number(r.id)));
      for (const w of wanted)
        if (w.entity === target && !found.has(w.id))
          problems.push({ pointer: w.pointer, key: 'validation.entityRef', params: {} });
    }
    if (problems.length) throw badInput(problems);
  };

  return {
    ...store,
    async create(entity, input, actor, options) {
      await check(entity, input, undefined, options?.tx);
      // The options (the caller's transaction, its language) go through untouched.
      return store.create(entity, input, actor, options);
    },
    async update(entity, id, input, actor) {
      await check(entity, input, id);
      return store.update(entity, id, input, actor);
    },
  };
}
