/**
 * The tests' own model of the edit rules (schemas/<entity>/edit.json, documented in
 * schemas/_meta/edit.schema.json), written from the documentation rather than imported from
 * the server, so that the contract tests judge the server by the definitions: which rule set
 * governs a status, whom a `who` fits, which fields a user may change, and whether they may
 * delete. The roles' read-only and hidden fields are the callers' to add.
 */
import type { EditRules, MachineDefinition } from '../../src/generated/meta.ts';
import { at, withField } from './records.ts';

type RuleSet = EditRules['states'][string];

/** A test user as the rules see them. */
export interface ModelUser {
  id: string | null;
  role: string;
  isOuter: boolean;
  /** The record is addressed to this user (the manifest's recipients). */
  recipient?: boolean;
}

/** A stored row as the rules see it. */
export interface ModelRow {
  status: string;
  owner: string | null;
  data: Record<string, unknown>;
}

const asList = (v: string | string[]): string[] => (Array.isArray(v) ? v : [v]);

/** The model of one entity's rules (its machine, if it has one, for the final states). */
export function createEditRulesModel(rules: EditRules, machine: MachineDefinition | undefined) {
  const final = (status: string): boolean => {
    const state = machine?.states[status];
    return Boolean(state && (state.type === 'final' || !Object.keys(state.on ?? {}).length));
  };
  const setFor = (status: string): RuleSet | undefined =>
    rules.states[status] ?? (final(status) ? undefined : rules.states['*']);
  const fieldsOf = (list: string[]): string[] =>
    list.flatMap((f) => (f.startsWith('@') ? rules.fieldSets![f.slice(1)]! : [f]));
  const fitsWho = (who: string, user: ModelUser, row: ModelRow): boolean => {
    if (who === 'any') return true;
    if (user.id === null) return false;
    if (who === 'staff') return !user.isOuter;
    if (who === 'outer') return user.isOuter;
    if (who === 'owner') return row.owner === user.id;
    if (who === 'recipient') return user.recipient === true;
    if (who.startsWith('role:')) return user.role === who.slice(5);
    if (who.startsWith('assigned:')) {
      const value = at(row.data, who.slice(9));
      return (Array.isArray(value) ? value : [value]).some(
        (v) => v !== undefined && v !== null && String(v) === user.id,
      );
    }
    throw new Error(`unknown who ${who}`);
  };
  const inside = (pointer: string, field: string): boolean => pointer === field || pointer.startsWith(`${field}/`);
  const fitting = (user: ModelUser, row: ModelRow) => {
    const set = setFor(row.status);
    return set && set.update !== 'none'
      ? set.update.filter((r) => asList(r.who).some((w) => fitsWho(w, user, row)))
      : [];
  };

  return {
    /** Some rule lets the user update the record in its status. */
    mayUpdate: (user: ModelUser, row: ModelRow): boolean => fitting(user, row).length > 0,
    /** The rules let the user change the field at `pointer` (a changed leaf). */
    mayChange(user: ModelUser, row: ModelRow, pointer: string): boolean {
      return fitting(user, row).some((r) => {
        const except = fieldsOf(r.except ?? []);
        const named = r.fields === 'all' || fieldsOf(r.fields).some((f) => inside(pointer, f));
        return named && !except.some((e) => inside(pointer, e) || inside(e, pointer));
      });
    },
    /** The rules let the user delete the record in its status. */
    mayDelete(user: ModelUser, row: ModelRow): boolean {
      const set = setFor(row.status);
      return Boolean(set?.delete && set.delete !== 'none' && asList(set.delete).some((w) => fitsWho(w, user, row)));
    },
    /** The `assigned:` fields the rules name (a user may be the one they name). */
    assignedFields: [
      ...new Set(
        Object.values(rules.states).flatMap((s) => [
          ...(s.update === 'none' ? [] : s.update.flatMap((r) => asList(r.who))),
          ...(s.delete && s.delete !== 'none' ? asList(s.delete) : []),
        ]),
      ),
    ]
      .filter((w) => w.startsWith('assigned:'))
      .map((w) => w.slice(9)),
  };
}

/**
 * The fields that differ between two records as the server names them: the innermost object
 * properties that changed (arrays and scalars whole; an object added or removed, property by
 * property).
 */
export function changedLeaves(before: unknown, after: unknown, prefix = ''): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
  if (same(before, after)) return [];
  const descend = !prefix || ((isObject(before) || before === undefined) && (isObject(after) || after === undefined));
  if (!descend) return [prefix];
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  return [...new Set([...Object.keys(b), ...Object.keys(a)])]
    .sort()
    .flatMap((k) => changedLeaves(b[k], a[k], `${prefix}/${k}`));
}

/** A value with its object keys in order, for comparing as JSON. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/**
 * `next` with every change the user may not make put back as it is in `row` (a refused leaf
 * takes its stored value, or goes where the row has none): the update the rules accept.
 */
export function keepingWhatRulesKeep(
  model: ReturnType<typeof createEditRulesModel>,
  user: ModelUser,
  row: ModelRow,
  next: Record<string, unknown>,
): Record<string, unknown> {
  let out = structuredClone(next);
  for (const leaf of changedLeaves(row.data, out)) {
    if (!model.mayChange(user, row, leaf)) out = withField(out, leaf, at(row.data, leaf));
  }
  return out;
}
