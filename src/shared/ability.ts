import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';

/** Abilities over subjects named by the manifests' `subject` (e.g. "Appeal"), or "all". */
export type PortalAbility = MongoAbility<[string, string]>;
export type PortalRule = RawRuleOf<PortalAbility>;

/**
 * Turns the permission strings sign-in returns (`"read Appeal"`, `"FINISH PharmacyAppeal"`)
 * into CASL rules: each is split at the first space into action and subject (spec §6).
 * @example rulesFromPermissions(['read Appeal']) // [{ action: 'read', subject: 'Appeal' }]
 */
export function rulesFromPermissions(permissions: readonly string[]): Array<{ action: string; subject: string }> {
  return permissions.flatMap((p) => {
    const i = p.indexOf(' ');
    return i > 0 ? [{ action: p.slice(0, i), subject: p.slice(i + 1).trim() }] : [];
  });
}

/** Builds an ability from rules. */
export const createAbility = (rules: ReadonlyArray<{ action: string; subject: string }>): PortalAbility =>
  createMongoAbility<PortalAbility>(rules as PortalRule[]);

/** Whether a screen's `permission` ("public", "signedIn" or "action Subject") is granted. */
export function canOpen(ability: PortalAbility, permission: string, isSignedIn = false): boolean {
  if (permission === 'public') return true;
  if (permission === 'signedIn') return isSignedIn;
  const [rule] = rulesFromPermissions([permission]);
  return rule ? ability.can(rule.action, rule.subject) : false;
}
