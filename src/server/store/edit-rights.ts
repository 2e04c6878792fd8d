/**
 * The edit rules of the entities (`schemas/<entity>/edit.json`) applied to one actor and one
 * stored record: what the store enforces on update, delete and upload, and what the `rights`
 * route tells the screens. The rule logic itself is shared (src/shared/edit-rules.ts); this
 * module adds what only the server knows — the machine's states, the actor's roles and
 * identifiers, and the roles' read-only and hidden fields (CASL field rules).
 */
import type { JSONSchema7 } from 'json-schema';
import type { DefinitionRegistry, EntityDefinition } from '../../definitions/registry.ts';
import { deref } from '../../shared/field-schema.ts';
import {
  coveredBy,
  editRightsOf,
  mayChange,
  ruleSetFor,
  statesOf,
  type EditRights,
  type StatesInfo,
} from '../../shared/edit-rules.ts';
import { changedPointers, sameJson } from '../../shared/json-diff.ts';
import { toPointer, valueAt } from '../../shared/pointer.ts';
import { hiddenFieldsOf, readOnlyFieldsOf } from '../../shared/ability.ts';
import { isRecipient, type Actor } from '../auth/access.ts';
import { findServerOwnedFields } from './record-schema.ts';

/** A stored row as the rules need it. */
export interface RuledRow {
  status: string;
  owner: string | null;
  data: Record<string, unknown>;
}

/** What an actor may do to one record now, as the screens are told (`GET {base}/rights/{id}`). */
export interface RecordRights {
  /** The actor may send an update (some fields may change). */
  update: boolean;
  delete: boolean;
  /** Fields of the schema the actor may not change (JSON pointers; an object covers what is in it). */
  readOnly: string[];
}

/** The edit-rule judge of a registry's entities. */
export interface EditRightsJudge {
  /** The rights the entity's rules give the actor on the row (a trusted actor may do everything). */
  rightsOf(def: EntityDefinition, actor: Actor, row: RuledRow): EditRights;
  /**
   * The changes from `before` to `after` the actor may not make: pointers of changed fields
   * that no fitting rule allows, or that the actor's roles keep read-only or hidden (those are
   * named as the roles name them). Empty when everything may change.
   */
  refusedChanges(
    def: EntityDefinition,
    actor: Actor,
    rights: EditRights,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
  ): string[];
  /** The rights as the screens need them: may update, may delete, and the fields that stay read-only. */
  recordRights(def: EntityDefinition, actor: Actor, row: RuledRow): RecordRights;
}

/** Everything may change: the server's own writes. */
const TRUSTED: EditRights = { update: true, grants: [{ fields: 'all', except: [] }], delete: true };

/**
 * Creates the judge; the machines' states are read once.
 * @example const judge = createEditRightsJudge(registry); judge.rightsOf(def, actor, row).update
 */
export function createEditRightsJudge(registry: DefinitionRegistry): EditRightsJudge {
  const states = new Map<string, StatesInfo | undefined>();
  for (const def of registry.entities.values()) {
    const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
    states.set(def.id, machine ? statesOf(machine) : undefined);
  }
  // Fields the server writes (schema readOnly): every route that takes a client's record keeps
  // their stored values (server-owned.ts), so a change there is the server's own (a tariff
  // recomputed after the zone changed), never the actor's, and no rule refuses it.
  const owned = new Map<string, string[]>();
  for (const def of registry.entities.values())
    owned.set(
      def.id,
      findServerOwnedFields(def.schema).map((f) => toPointer(f.path)),
    );
  const isOwned = (def: EntityDefinition, pointer: string): boolean =>
    (owned.get(def.id) ?? []).some((o) => pointer === o || pointer.startsWith(`${o}/`));
  /** The fields the actor's roles keep from them: read-only ones and hidden ones. */
  const fixedOf = (def: EntityDefinition, actor: Actor): string[] => [
    ...new Set([
      ...readOnlyFieldsOf(actor.ability, def.manifest.subject),
      ...hiddenFieldsOf(actor.ability, def.manifest.subject),
    ]),
  ];

  const rightsOf = (def: EntityDefinition, actor: Actor, row: RuledRow): EditRights => {
    if (actor.trusted) return TRUSTED;
    const set = ruleSetFor(def.edit, row.status, states.get(def.id));
    return editRightsOf(def.edit, set, actor, {
      owner: row.owner,
      data: row.data,
      addressedToActor: isRecipient(actor, def, row.data),
    });
  };

  return {
    rightsOf,

    refusedChanges(def, actor, rights, before, after) {
      const fixed = fixedOf(def, actor).filter((f) => !isOwned(def, f));
      const changed = changedPointers(before, after).filter((p) => !isOwned(def, p));
      // The roles' own read-only and hidden fields, named as the roles name them.
      const byRoles = fixed.filter((f) => !sameJson(valueAt(before, f), valueAt(after, f)));
      const byRules = changed.filter((p) => !mayChange(rights, p) && !coveredBy(byRoles, p));
      return [...byRoles, ...byRules];
    },

    recordRights(def, actor, row) {
      const rights = rightsOf(def, actor, row);
      const fixed = fixedOf(def, actor);
      const allowed = (pointer: string): boolean =>
        rights.update &&
        mayChange(rights, pointer) &&
        !coveredBy(fixed, pointer) &&
        !fixed.some((f) => f.startsWith(`${pointer}/`));
      /** The read-only pointers under a schema node, and whether every field there is read-only. */
      const lockedUnder = (node: JSONSchema7 | undefined, prefix: string): { pointers: string[]; whole: boolean } => {
        const pointers: string[] = [];
        let whole = true;
        for (const [name, child] of Object.entries(deref(def.schema, node)?.properties ?? {})) {
          const pointer = `${prefix}/${name}`;
          if (allowed(pointer)) {
            whole = false;
            continue;
          }
          // An object whose fields are partly allowed is entered; one wholly read-only is named whole.
          const inner = deref(def.schema, child as JSONSchema7);
          const nested = inner?.type === 'object' && inner.properties ? lockedUnder(inner, pointer) : undefined;
          if (nested && !nested.whole) {
            pointers.push(...nested.pointers);
            whole = false;
          } else pointers.push(pointer);
        }
        return { pointers, whole };
      };
      const locked = lockedUnder(def.schema, '');
      return {
        update: rights.update && actor.ability.can('update', def.manifest.subject) && !locked.whole,
        delete: rights.delete && actor.ability.can('delete', def.manifest.subject),
        readOnly: locked.pointers.sort(),
      };
    },
  };
}
