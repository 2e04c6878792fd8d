import type { ScreenDefinition } from '../../generated/meta.ts';
import { screens } from '../../definitions/client.ts';
import { canOpen, type PortalAbility } from '../../shared/ability.ts';
import { getSetting } from '../../client/settings.ts';

/**
 * Whether a screen is meant for the signed-in user's audience (`audience`: staff or outer
 * users; absent: everyone). Its permission still decides whether it may be opened.
 */
export const forAudience = (screen: ScreenDefinition, isOuter: boolean = getSetting('isOuter')): boolean =>
  !screen.audience || screen.audience === (isOuter ? 'outer' : 'staff');

/**
 * The family of a route: the route without a trailing `/new`, `/:id` or `/:id/…` — the list,
 * its form, detail and edit screens share one (`/admin/x`).
 */
const familyOf = (route: string): string => route.replace(/\/(new|:id(\/.*)?)$/, '');

/**
 * The route of an entity's screen of a kind, with `:id` filled in: how screens link to each
 * other without naming one another (row click → detail, detail → edit, list → create). With
 * an ability, a screen whose permission it lacks counts as absent (no button leads there).
 * With `near` (the current screen's route), a screen of the same family is preferred — an
 * entity may have a second set of screens for other people (the delegated user screens),
 * whose forms may use a view; otherwise screens with a view (partial wizards) are skipped,
 * screens of the user's audience (`audience`) come first, and among them a screen with a
 * permission wins over a public one. With `record`, a screen whose `initial` values the record
 * has (the edit wizard of one report kind) comes before all others.
 * @example entityScreenPath('x', 'detail', 5) // '/admin/x/5'
 */
export function entityScreenPath(
  entity: string,
  kinds: ScreenDefinition['kind'][],
  id?: number | string,
  ability?: PortalAbility,
  near?: string,
  record?: Record<string, unknown>,
): string | undefined {
  const wantsId = id !== undefined;
  const candidates = screens.filter(
    (s) =>
      s.entity === entity &&
      kinds.includes(s.kind) &&
      s.route.includes(':id') === wantsId &&
      (!ability || canOpen(ability, s.permission)),
  );
  const own = record && candidates.find((s) => initialOf(s) && matchesInitial(record, initialOf(s)!));
  if (own) return fillRoute(own.route, id);
  const family = near === undefined ? [] : candidates.filter((s) => familyOf(s.route) === familyOf(near));
  // A partial wizard (a view) or a narrower list (fixed filters) is not where the entity's buttons lead.
  const plain = candidates.filter((s) => !s.options?.view && !s.options?.fixedFilters && !initialOf(s));
  const mine = plain.filter((s) => forAudience(s));
  // The user's own audience first (a citizen's list leads to the citizen's record page); a public
  // page of the entity (a form for citizens) is an entry point, not where the entity's own
  // buttons lead — unless it is all the user's audience has.
  const screen =
    family.find((s) => !s.options?.view) ??
    family[0] ??
    mine.find((s) => s.permission !== 'public') ??
    mine[0] ??
    plain[0];
  return screen && fillRoute(screen.route, id);
}

/** The values a form or wizard screen gives a new record (`options.initial`). */
const initialOf = (screen: ScreenDefinition): Record<string, unknown> | undefined =>
  (screen.options as { initial?: Record<string, unknown> } | undefined)?.initial;

/** Whether a record holds every one of a screen's initial values (it is a record of that screen's kind). */
const matchesInitial = (record: Record<string, unknown>, initial: Record<string, unknown>): boolean =>
  Object.entries(initial).every(([k, v]) => JSON.stringify(record[k]) === JSON.stringify(v));

/** A screen's route with `:id` replaced. */
export const fillRoute = (route: string, id?: number | string): string =>
  id === undefined ? route : route.replace(':id', encodeURIComponent(String(id)));

/** Other screens of the entity that work on one record (e.g. a wizard over part of it). */
export const recordViews = (entity: string, ability?: PortalAbility): ScreenDefinition[] =>
  screens.filter(
    (s) =>
      s.entity === entity &&
      s.route.includes(':id') &&
      Boolean(s.options?.view) &&
      !initialOf(s) &&
      (!ability || canOpen(ability, s.permission)),
  );

/**
 * The boards of a record page: board screens whose route continues the page's route
 * (`/admin/projects/:id` → `/admin/projects/:id/board`), linked from it like its views.
 */
export const recordBoards = (route: string, ability?: PortalAbility): ScreenDefinition[] =>
  screens.filter(
    (s) => s.kind === 'board' && s.route.startsWith(`${route}/`) && (!ability || canOpen(ability, s.permission)),
  );
