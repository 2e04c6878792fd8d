/**
 * The edit rules of an entity (`schemas/<entity>/edit.json`, see schemas/_meta/edit.schema.json):
 * which fields a user may change, and whether they may delete the record, in the record's
 * current status. Pure functions over plain data, shared by the server's store (which enforces
 * them), its `rights` route (which tells the screens) and the definition checker.
 *
 * What these rules do not decide: whether the user's roles may `update` / `delete` the subject
 * at all (CASL, checked before), their roles' read-only and hidden fields (subtracted after),
 * the row scope (who sees the record), and status changes (the machine's events).
 */
import type { EditRules } from '../generated/meta.ts';
import { valueAt } from './pointer.ts';

type Data = Record<string, unknown>;
/** One state's rules: who changes which fields, who deletes. */
export type EditRuleSet = EditRules['states'][string];
export type EditRule = Exclude<EditRuleSet['update'], 'none'>[number];

/** The key of the rule set covering every state not named (and, without a machine, every record). */
export const OTHER_STATES = '*';

/** The machine's states as the rules need them: the names, and which are final (no outgoing event). */
export interface StatesInfo {
  names: readonly string[];
  final: ReadonlySet<string>;
}

/**
 * The states of a machine config and its final ones: a state that declares `type: "final"` or
 * has no event to leave it by.
 * @example statesOf({ states: { A: { on: { GO: { target: 'B' } } }, B: { type: 'final' } } }) // { names: ['A', 'B'], final: Set {'B'} }
 */
export function statesOf(machine: {
  states: Record<string, { type?: string; on?: Record<string, unknown> }>;
}): StatesInfo {
  const names = Object.keys(machine.states);
  const final = new Set(
    names.filter((n) => machine.states[n]!.type === 'final' || !Object.keys(machine.states[n]!.on ?? {}).length),
  );
  return { names, final };
}

/**
 * The rule set that governs a record in `status`: the state's own; else, for a state that is
 * not final, the `*` set; else none (a final state nobody named is read-only).
 * @example ruleSetFor(rules, 'REJECTED', { names: [...], final: new Set(['REJECTED']) }) // undefined
 */
export function ruleSetFor(rules: EditRules, status: string, states: StatesInfo | undefined): EditRuleSet | undefined {
  const own = rules.states[status];
  if (own) return own;
  if (states?.final.has(status)) return undefined;
  return rules.states[OTHER_STATES];
}

/** Who is asking, as the rules see them. */
export interface EditActor {
  id: string | null;
  isOuter: boolean;
  roles: readonly string[];
}

/** The record as the rules see it: the stored owner, data, and whether it is addressed to the actor. */
export interface EditRecord {
  owner: string | null;
  data: Data;
  /** The record names the actor as a recipient (manifest `scope.recipients`). */
  addressedToActor?: boolean;
}

const sameUser = (value: unknown, id: string): boolean =>
  Array.isArray(value)
    ? value.some((v) => sameUser(v, id))
    : value !== undefined && value !== null && String(value) === id;

/**
 * Whether a `who` of a rule fits the actor on this record.
 * @example fits('assigned:/executorId', { id: '7', isOuter: false, roles: [] }, { owner: '1', data: { executorId: 7 } }) // true
 */
export function fits(who: string, actor: EditActor, record: EditRecord): boolean {
  if (who === 'any') return true;
  if (actor.id === null) return false;
  if (who === 'staff') return !actor.isOuter;
  if (who === 'outer') return actor.isOuter;
  if (who === 'owner') return record.owner === actor.id;
  if (who === 'recipient') return record.addressedToActor === true;
  if (who.startsWith('assigned:')) return sameUser(valueAt(record.data, who.slice('assigned:'.length)), actor.id);
  if (who.startsWith('role:')) return actor.roles.includes(who.slice('role:'.length));
  return false;
}

const whoList = (who: string | string[]): string[] => (Array.isArray(who) ? who : [who]);

/** A field list with its `@sets` replaced by their fields. */
export function expandFields(rules: EditRules, fields: readonly string[]): string[] {
  return [...new Set(fields.flatMap((f) => (f.startsWith('@') ? (rules.fieldSets?.[f.slice(1)] ?? []) : [f])))];
}

/** What one fitting rule lets change: every field or the listed ones, less its exceptions. */
export interface EditGrant {
  fields: 'all' | string[];
  except: string[];
}

/** What one user may do to one record now. */
export interface EditRights {
  /** Some rule fits: the user may send an update (which may still change only what `grants` allow). */
  update: boolean;
  /** The fitting rules, their field sets expanded. */
  grants: EditGrant[];
  delete: boolean;
}

/**
 * The rights the rules give this actor on this record in its state. With no fitting rule the
 * record cannot be changed by the actor; a field may change when any fitting rule allows it.
 * @example editRightsOf(rules, ruleSetFor(rules, 'CREATED', states), actor, { owner: actor.id, data }).grants
 * // [{ fields: ['/content', '/files'], except: [] }]
 */
export function editRightsOf(
  rules: EditRules,
  set: EditRuleSet | undefined,
  actor: EditActor,
  record: EditRecord,
): EditRights {
  if (!set) return { update: false, grants: [], delete: false };
  const fitting =
    set.update === 'none' ? [] : set.update.filter((r) => whoList(r.who).some((w) => fits(w, actor, record)));
  return {
    update: fitting.length > 0,
    grants: fitting.map((r) => ({
      fields: r.fields === 'all' ? 'all' : expandFields(rules, r.fields),
      except: expandFields(rules, r.except ?? []),
    })),
    delete:
      set.delete !== undefined && set.delete !== 'none' && whoList(set.delete).some((w) => fits(w, actor, record)),
  };
}

/**
 * Whether the field at `pointer` is one of `fields` or inside one of them (`/customer` covers
 * `/customer/phone`).
 * @example coveredBy(['/customer'], '/customer/phone') // true
 */
export function coveredBy(fields: readonly string[], pointer: string): boolean {
  return fields.some((f) => pointer === f || pointer.startsWith(`${f}/`));
}

/** Whether a grant lets the field at `pointer` change: named (or "all"), not excepted, and holding nothing excepted. */
const grantAllows = (g: EditGrant, pointer: string): boolean =>
  (g.fields === 'all' || coveredBy(g.fields, pointer)) &&
  !coveredBy(g.except, pointer) &&
  !g.except.some((e) => e.startsWith(`${pointer}/`));

/**
 * Whether the rights let the field at `pointer` change.
 * @example mayChange({ update: true, grants: [{ fields: 'all', except: ['/regionId'] }], delete: false }, '/regionId') // false
 */
export function mayChange(rights: EditRights, pointer: string): boolean {
  return rights.grants.some((g) => grantAllows(g, pointer));
}
