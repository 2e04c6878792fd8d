import type { DefinitionRegistry } from '../../definitions/registry.ts';
import type { FieldProblem } from '../../shared/validation/field-errors.ts';
import { LOCALES } from '../../shared/locales.ts';
import { valueAt } from '../../shared/pointer.ts';
import { placeholderNames, unknownPlaceholders } from '../../shared/message-template.ts';
import { badInput } from '../errors.ts';
import type { EntityStore } from './entity-store.ts';

/** Names shown in the refusal at most (the form's hint lists them all). */
const NAMES_SHOWN = 12;

/**
 * Wraps the store so that a message template (a record of an entity whose manifest declares
 * `messageTemplates`) is saved only when every `{{placeholder}}` of its texts is a field of the
 * entity it is for, or a notice parameter: otherwise 400 on that language's text naming the
 * unknown placeholder and the names it may use; nothing is written. The entity itself is left to
 * the schema (an enum).
 * @example app.decorate('store', withMessageTemplates(store, app.definitions))
 */
export function withMessageTemplates(store: EntityStore, registry: DefinitionRegistry): EntityStore {
  const holders = new Map(
    [...registry.entities.values()].flatMap((d) =>
      d.manifest.messageTemplates ? [[d.id, d.manifest.messageTemplates] as const] : [],
    ),
  );
  const allowedFor = new Map<string, Set<string>>();
  const allowed = (entity: string): Set<string> | undefined => {
    const def = registry.entities.get(entity);
    if (!def) return undefined;
    let names = allowedFor.get(entity);
    if (!names) allowedFor.set(entity, (names = new Set(placeholderNames(def.schema))));
    return names;
  };
  const check = (entity: string, input: unknown): void => {
    const spec = holders.get(entity);
    if (!spec || !input || typeof input !== 'object') return;
    const names = allowed(String(valueAt(input, spec.entityField)));
    if (!names) return;
    const problems: FieldProblem[] = [];
    for (const locale of LOCALES) {
      const pointer = `${spec.textField}/${locale}`;
      const text = valueAt(input, pointer);
      if (typeof text !== 'string') continue;
      const unknown = unknownPlaceholders(text, names);
      if (unknown.length)
        problems.push({
          pointer,
          key: 'pharmacy.template.unknownPlaceholder',
          params: {
            name: unknown[0],
            names: [...names].slice(0, NAMES_SHOWN).join(', ') + (names.size > NAMES_SHOWN ? ', …' : ''),
          },
        });
    }
    if (problems.length) throw badInput(problems);
  };
  return {
    ...store,
    async create(entity, input, actor, options) {
      check(entity, input);
      return store.create(entity, input, actor, options);
    },
    async update(entity, id, input, actor) {
      check(entity, input);
      return store.update(entity, id, input, actor);
    },
  };
}
