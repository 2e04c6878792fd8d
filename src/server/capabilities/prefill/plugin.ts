import type { FastifyPluginAsync } from 'fastify';
import { getAtPointer, setAt } from '../../../shared/pointer.ts';
import type { CapabilityOptions } from '../registry.ts';

/** Whether a field counts as left empty by the new record: absent, blank text or no rows. */
const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * The `prefill` capability: before a create of an entity that declares it, the fields the new
 * record leaves empty are copied from the record its `by` field names (a report's rows from its
 * template), or every copied field when the rule says `always` (a field that must match its
 * source). The one store object is wrapped in place (as computed-writes.ts does), so every
 * create — the create route, a merge, an import — fills the same way. The source is read as
 * the creating user: one who may not read it gets its 404 and nothing is created.
 */
const prefill: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  const rules = new Map(entities.map((def) => [def.id, def.manifest.prefill!]));
  const store = app.store;
  const { create } = store;
  store.create = async (name, input, actor, options) => {
    const entityRules = rules.get(name);
    if (!entityRules || !input || typeof input !== 'object' || Array.isArray(input))
      return create(name, input, actor, options);
    const data = { ...(input as Record<string, unknown>) };
    for (const rule of entityRules) {
      const id = getAtPointer(data, rule.by);
      // `always`: the copy must match its source, so what the record sends is overwritten.
      const targets = Object.entries(rule.copy).filter(
        ([target]) => rule.always || isEmpty(getAtPointer(data, target)),
      );
      // A missing or mistyped id is the schema's to refuse; an actor who may not create is the store's.
      if (!Number.isInteger(id) || (id as number) < 1 || !targets.length) continue;
      if (!actor.ability.can('create', app.definitions.entities.get(name)!.manifest.subject)) continue;
      const source = await store.get(rule.from, id as number, actor);
      for (const [target, from] of targets) {
        const value = getAtPointer(source, from);
        if (value !== undefined) setAt(data, target, structuredClone(value));
      }
    }
    return create(name, data, actor, options);
  };
};

export default prefill;
