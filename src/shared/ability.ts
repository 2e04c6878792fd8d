import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import { pointerSegments, toPointer } from './pointer.ts';

/** Abilities over subjects named by the manifests' `subject` (e.g. "Appeal"), or "all". */
export type PortalAbility = MongoAbility<[string, string]>;
export type PortalRule = RawRuleOf<PortalAbility>;

/** A rule as sign-in hands it to the client: a permission, or a field rule (`inverted`, with `fields`). */
export interface AbilityRule {
  action: string;
  subject: string;
  /** JSON pointers of record fields the rule is about (CASL field names). */
  fields?: string[];
  /** A "cannot" rule. */
  inverted?: boolean;
}

/**
 * The rules of a device without a session (spec §3): read on everything. The client's
 * settings start from them and logout returns to them; the screens a visitor may open are
 * still narrowed by the guest permissions (src/client/react/ability.tsx).
 */
export const READ_ALL_RULES: AbilityRule[] = [{ action: 'read', subject: 'all' }];

/** Fields of one subject that a role may read but not change (access.json `readOnlyFields`). */
export interface ReadOnlyFields {
  subject: string;
  fields: string[];
}

/** Fields of one subject that a role may not read (access.json `hiddenFields`); same shape as read-only fields. */
export type HiddenFields = ReadOnlyFields;

/** What of a role decides its abilities: its permission strings, its read-only and its hidden fields. */
export interface RoleRules {
  permissions: readonly string[];
  readOnlyFields?: readonly ReadOnlyFields[] | undefined;
  hiddenFields?: readonly HiddenFields[] | undefined;
}

/**
 * Turns the permission strings sign-in returns (`"read Appeal"`, `"FINISH PharmacyAppeal"`)
 * into CASL rules: each is split at the first space into action and subject (spec §6). An
 * action may be a workflow event as well as a CRUD verb, so a transition is checked the same
 * way: `ability.can('FINISH', 'Tender')`.
 * @example rulesFromPermissions(['read Appeal']) // [{ action: 'read', subject: 'Appeal' }]
 */
export function rulesFromPermissions(permissions: readonly string[]): Array<{ action: string; subject: string }> {
  return permissions.flatMap((p) => {
    const i = p.indexOf(' ');
    return i > 0 ? [{ action: p.slice(0, i), subject: p.slice(i + 1).trim() }] : [];
  });
}

/**
 * The field rules of a user with these roles. Per subject, the fields that every role able to
 * update it declares read-only become a CASL "cannot update Subject fields" rule, and the
 * fields that every role able to read it declares hidden a "cannot read Subject fields" rule —
 * a role granting the action outright lifts the restriction, as permissions are a union. The
 * field names are the JSON pointers of the record (`/regionId`, `/customer`).
 * @example fieldRulesOf([{ permissions: ['update Appeal'], readOnlyFields: [{ subject: 'Appeal', fields: ['/regionId'] }] }])
 * // [{ action: 'update', subject: 'Appeal', fields: ['/regionId'], inverted: true }]
 * @example fieldRulesOf([{ permissions: ['read Appeal'], hiddenFields: [{ subject: 'Appeal', fields: ['/customer/pnfl'] }] }])
 * // [{ action: 'read', subject: 'Appeal', fields: ['/customer/pnfl'], inverted: true }]
 */
export function fieldRulesOf(roles: readonly RoleRules[]): AbilityRule[] {
  return [
    ...agreedFieldRules(roles, 'update', (r) => r.readOnlyFields),
    ...agreedFieldRules(roles, 'read', (r) => r.hiddenFields),
  ];
}

/** The "cannot `action` Subject fields" rules: per subject, the fields every role that may `action` it lists. */
function agreedFieldRules(
  roles: readonly RoleRules[],
  action: string,
  listOf: (role: RoleRules) => readonly ReadOnlyFields[] | undefined,
): AbilityRule[] {
  const subjects = [...new Set(roles.flatMap((r) => (listOf(r) ?? []).map((f) => f.subject)))].sort();
  const rules: AbilityRule[] = [];
  for (const subject of subjects) {
    const granting = roles.filter((r) => createAbility(rulesFromPermissions(r.permissions)).can(action, subject));
    if (!granting.length) continue;
    const sets = granting.map(
      (r) => new Set((listOf(r) ?? []).filter((f) => f.subject === subject).flatMap((f) => f.fields)),
    );
    const fields = [...sets[0]!].filter((f) => sets.every((s) => s.has(f))).sort();
    if (fields.length) rules.push({ action, subject, fields, inverted: true });
  }
  return rules;
}

/** Builds an ability from rules (permission rules first: a later field rule overrides them). */
export const createAbility = (rules: ReadonlyArray<AbilityRule>): PortalAbility =>
  createMongoAbility<PortalAbility>(rules as PortalRule[]);

/** The ability of a user with these roles: the union of their permissions plus the field rules. */
export function abilityOfRoles(roles: readonly RoleRules[]): {
  permissions: string[];
  fieldRules: AbilityRule[];
  ability: PortalAbility;
} {
  const permissions = [...new Set(roles.flatMap((r) => r.permissions))].sort();
  const fieldRules = fieldRulesOf(roles);
  return { permissions, fieldRules, ability: createAbility([...rulesFromPermissions(permissions), ...fieldRules]) };
}

/** Whether a screen's `permission` ("public", "signedIn" or "action Subject") is granted. */
export function canOpen(ability: PortalAbility, permission: string, isSignedIn = false): boolean {
  if (permission === 'public') return true;
  if (permission === 'signedIn') return isSignedIn;
  const [rule] = rulesFromPermissions([permission]);
  return rule ? ability.can(rule.action, rule.subject) : false;
}

/**
 * The fields of a subject the ability may read but not change: the fields of its
 * "cannot update" field rules, where it may update the subject at all (otherwise nothing of
 * it changes and there is no field to single out). `action` may be a workflow event, for
 * field rules written per transition.
 * @example readOnlyFieldsOf(ability, 'Appeal') // ['/customer', '/regionId']
 */
export function readOnlyFieldsOf(ability: PortalAbility, subject: string, action = 'update'): string[] {
  if (!ability.can(action, subject)) return [];
  const fields = ability
    .possibleRulesFor(action, subject)
    .filter((r) => r.inverted && r.fields)
    .flatMap((r) => r.fields as string[]);
  return [...new Set(fields)].filter((f) => !ability.can(action, subject, f)).sort();
}

/**
 * Whether the ability may change the field at `pointer` of a subject's record: neither the
 * field nor an object holding it is read-only (a read-only `/customer` covers
 * `/customer/pnfl`). Works per workflow event as well (`action` = the event).
 * @example mayChangeField(ability, 'Appeal', '/customer/pnfl')
 */
export function mayChangeField(ability: PortalAbility, subject: string, pointer: string, action = 'update'): boolean {
  if (!ability.can(action, subject)) return false;
  const segments = pointerSegments(pointer);
  for (let i = 1; i <= segments.length; i++) {
    if (!ability.can(action, subject, toPointer(segments.slice(0, i)))) return false;
  }
  return true;
}

/**
 * The fields of a subject the ability may not read: the fields of its "cannot read" field
 * rules, where it may read the subject at all. The server leaves them (and everything under
 * them) out of every answer to that user; forms leave them out.
 * @example hiddenFieldsOf(ability, 'PharmacyAppeal') // ['/consumer/phone', '/consumer/pinfl']
 */
export function hiddenFieldsOf(ability: PortalAbility, subject: string): string[] {
  return readOnlyFieldsOf(ability, subject, 'read');
}
