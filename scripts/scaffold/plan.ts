/**
 * The plan of `npm run new:entity`: what it would write, computed from the definitions without
 * touching the disk, so the refusals and the files can be tested apart from the writing. The
 * files themselves come from fresh.ts (a new entity) or like.ts (a copy of an existing one).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AccessDefinition } from '../../src/generated/meta.ts';
import { unknownNameMessage } from '../../src/definitions/check/suggest.ts';
import type { DefinitionRegistry } from '../../src/definitions/registry.ts';
import type { FlatTexts } from './translations.ts';

/** A refusal in plain words: the CLI prints it and exits 1, without a stack. */
export class ScaffoldError extends Error {}

/** What the analyst asked for. */
export interface ScaffoldOptions {
  id: string;
  workflow: boolean;
  like?: string | undefined;
  /** The English title (plural, as a list is titled); default: the id in words. */
  title?: string | undefined;
}

/** What a builder needs: the options, resolved, and the definitions as they are. */
export interface PlanInput {
  id: string;
  subject: string;
  title: string;
  workflow: boolean;
  like?: string | undefined;
  root: string;
  registry: DefinitionRegistry;
  /** schemas/_access/access.json as it is (the builders return a changed copy). */
  access: AccessDefinition;
}

/** One role's new permissions, for the report. */
export interface Grant {
  role: string;
  permissions: string[];
}

/** Everything the scaffold writes. */
export interface Plan {
  /** Repository-relative path → JSON content (new files only). */
  files: Map<string, unknown>;
  texts: FlatTexts;
  /** access.json with the new permissions. */
  access: AccessDefinition;
  grants: Grant[];
  /** The new machine's id, when there is one. */
  machine: string | undefined;
}

/** An entity id: lower-case words of letters and digits joined by single hyphens. */
export const ENTITY_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/**
 * The CASL subject of an entity id.
 * @example subjectOf('sugar-outlet') // 'SugarOutlet'
 */
export const subjectOf = (id: string): string =>
  id.replace(/(^|-)([a-z0-9])/g, (_m, _dash, c: string) => c.toUpperCase());

/**
 * The plural of an id's last word, for routes (`/admin/<plural>`).
 * @example plural('sugar-outlet') // 'sugar-outlets'
 * @example plural('vacancy') // 'vacancies'
 */
export function plural(id: string): string {
  if (/[^aeiou]y$/.test(id)) return `${id.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(id)) return `${id}es`;
  return `${id}s`;
}

/**
 * The id in words, plural, as the default English title.
 * @example titleOf('sugar-outlet') // 'Sugar outlets'
 */
export function titleOf(id: string): string {
  const words = plural(id).split('-').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The next free menu order in a section (10 after the last one). */
export function nextMenuOrder(registry: DefinitionRegistry, section: string): number {
  const orders = [...registry.screens.values()]
    .filter((s) => s.menu?.section === section)
    .map((s) => s.menu?.order ?? 0);
  return (orders.length ? Math.max(...orders) : 0) + 10;
}

/**
 * The roles that get every right on a new entity when they exist: the two general staff roles
 * (a department's head and its employees). Every other staff role reads it; outer roles and
 * anonymous visitors get nothing — a new registry is internal until the analyst says otherwise.
 */
export const DEFAULT_WRITER_ROLES = ['department-head', 'employee'] as const;

/**
 * access.json with the default roles' permissions on a new subject: staff roles (not the admin,
 * who has `manage all`, not an outer role, not an OWN-scoped one) read; the writer roles — or,
 * when none of them exists, every staff role — also create, update, delete and send each event.
 */
export function grantDefaultRoles(
  access: AccessDefinition,
  subject: string,
  events: readonly string[],
): { json: AccessDefinition; grants: Grant[] } {
  const outer = new Set([...(access.outerRoles ?? []), ...(access.outerRolesYur ?? [])]);
  const staff = access.roles.filter((r) => r.code !== access.adminRole && !outer.has(r.code) && r.scope !== 'OWN');
  const writers = new Set<string>(DEFAULT_WRITER_ROLES.filter((code) => staff.some((r) => r.code === code)));
  const everyoneWrites = writers.size === 0;
  const grants: Grant[] = [];
  const roles = access.roles.map((role) => {
    if (!staff.includes(role)) return role;
    const actions =
      everyoneWrites || writers.has(role.code) ? ['read', 'create', 'update', 'delete', ...events] : ['read'];
    const permissions = actions.map((a) => `${a} ${subject}`);
    grants.push({ role: role.code, permissions });
    return { ...role, permissions: [...role.permissions, ...permissions] };
  });
  return { json: { ...access, roles }, grants };
}

/**
 * Refuses what cannot become a new entity, in plain words: a malformed id, one that is taken
 * (folder, subject, API base, machine or screen file), an unknown `--like`.
 */
export function refusal(options: ScaffoldOptions, root: string, registry: DefinitionRegistry): string | undefined {
  const { id, like } = options;
  if (!ENTITY_ID.test(id))
    return `"${id}" is not a valid entity id: use lower-case words of letters and digits joined by hyphens (kebab-case), e.g. sugar-outlet`;
  if (existsSync(path.join(root, 'schemas', id)))
    return `schemas/${id} exists already: the entity "${id}" is there; pick another id`;
  const subject = subjectOf(id);
  for (const def of registry.entities.values()) {
    if (def.manifest.subject === subject)
      return `the subject ${subject} is taken by the entity "${def.id}"; pick another id`;
    if (def.manifest.base === `/${id}`)
      return `the API base /${id} is taken by the entity "${def.id}"; pick another id`;
  }
  if (options.workflow || like) {
    if (existsSync(path.join(root, 'workflows', `${id}.machine.json`)))
      return `workflows/${id}.machine.json exists already: pick another id`;
  }
  for (const suffix of ['list', 'new', 'edit', 'detail'])
    if (existsSync(path.join(root, 'screens', `${id}-${suffix}.json`)))
      return `screens/${id}-${suffix}.json exists already: pick another id`;
  if (like !== undefined && !registry.entities.has(like))
    return `--like: ${unknownNameMessage('entity', like, 'an entity in schemas/', [...registry.entities.keys()])}`;
  if (like !== undefined && options.workflow)
    return '--workflow and --like do not go together: the copy keeps the machine of the entity it copies (if it has one)';
  return undefined;
}
