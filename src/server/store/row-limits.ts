import { ApiError } from '../errors.ts';
import type { EntityStore } from './entity-store.ts';

/**
 * Wraps the store so that a record an actor writes stays within the actor's row limits
 * (`actor.rowLimits`, e.g. the delegated user administration): a create or update whose data
 * falls outside is refused with 403 before anything is written. Reads need no wrapper — the
 * store's scope (auth/access.ts rowScope and rowVisible) already applies the limits, so a row
 * outside them is "not found".
 * @example app.decorate('store', withRowLimits(withEntityRefs(…)))
 */
export function withRowLimits(store: EntityStore): EntityStore {
  const check = (entity: string, input: unknown, actor: Parameters<EntityStore['create']>[2]): void => {
    const limit = actor.rowLimits?.[entity];
    if (!limit) return;
    const data = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    if (!limit.test(data)) throw new ApiError(403, 'errors.forbidden');
  };
  return {
    ...store,
    async create(entity, input, actor, options) {
      check(entity, input, actor);
      return store.create(entity, input, actor, options);
    },
    async update(entity, id, input, actor) {
      check(entity, input, actor);
      return store.update(entity, id, input, actor);
    },
  };
}
