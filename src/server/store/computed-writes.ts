import type { Actor, EntityStore } from './entity-store.ts';

/**
 * What a computed-field capability does to a record's data before the store writes it: given
 * the client's data (system fields already removed or not), it answers the data with the
 * computed fields set — overwriting whatever the client sent for them — or throws an ApiError
 * (400 with field errors) for input it refuses.
 */
export type WriteStep = (data: Record<string, unknown>, actor: Actor) => Promise<Record<string, unknown>>;

/**
 * Runs `step` before every create and update of `entity`, on the store object the routes use.
 * Capability plugins are registered after the store service and cannot decorate it again, so
 * the one store object is changed in place: every route, capability and wrapper that writes
 * through `app.store` then writes computed fields the same way. The step sees the input as
 * sent (the version travels on); a non-object input is left to the store's validation.
 * @example addWriteStep(app.store, def.id, def.manifest.subject, async (data) => withTotals(data))
 */
export function addWriteStep(store: EntityStore, entity: string, subject: string, step: WriteStep): void {
  const { create, update } = store;
  // An actor who may not write at all is refused by the store (401/403) before anything is
  // computed or checked: the step neither reads other records for them nor answers 400 first.
  const computed = async (input: unknown, actor: Actor, action: 'create' | 'update'): Promise<unknown> =>
    input && typeof input === 'object' && !Array.isArray(input) && actor.ability.can(action, subject)
      ? step({ ...(input as Record<string, unknown>) }, actor)
      : input;
  store.create = async (name, input, actor, options) =>
    create(name, name === entity ? await computed(input, actor, 'create') : input, actor, options);
  // A record the actor may not change now (its status, the edit rules) is refused by the store
  // naming only the fields the actor changed: nothing is recomputed into it.
  const mayUpdate = (id: number, actor: Actor): Promise<boolean> =>
    store.rights(entity, id, actor).then(
      (rights) => rights.update,
      () => false,
    );
  store.update = async (name, id, input, actor) =>
    update(
      name,
      id,
      name === entity && (await mayUpdate(id, actor)) ? await computed(input, actor, 'update') : input,
      actor,
    );
}
