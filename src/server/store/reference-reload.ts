import type { EntityStore } from './entity-store.ts';
import type { ReferenceService } from './references.ts';

/**
 * Wraps the store so that a write to an entity that backs a reference list (reference.schema.json
 * `entity`) reloads the lists at once: the new good is offered in the next form, a renamed one is
 * shown with its new name. A write inside a caller's transaction (the seed) is not reloaded here
 * — the rows are not committed yet; the caller reloads after its commit.
 * @example withReferenceReload(store, references, new Set(['product']))
 */
export function withReferenceReload(
  store: EntityStore,
  references: ReferenceService,
  entities: ReadonlySet<string>,
): EntityStore {
  if (!entities.size) return store;
  return {
    ...store,
    async create(entity, input, actor, options) {
      const record = await store.create(entity, input, actor, options);
      if (entities.has(entity) && !options?.tx) await references.reload();
      return record;
    },
    async update(entity, id, input, actor) {
      const record = await store.update(entity, id, input, actor);
      if (entities.has(entity)) await references.reload();
      return record;
    },
    async remove(entity, id, actor, version) {
      await store.remove(entity, id, actor, version);
      if (entities.has(entity)) await references.reload();
    },
  };
}
