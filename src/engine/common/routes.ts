import type { ScreenDefinition } from '../../generated/meta.ts';
import { screens } from '../../definitions/client.ts';
import { canOpen, type PortalAbility } from '../../shared/ability.ts';

/**
 * The route of an entity's screen of a kind, with `:id` filled in: how screens link to each
 * other without naming one another (row click → detail, detail → edit, list → create). With
 * an ability, a screen whose permission it lacks counts as absent (no button leads there);
 * a screen with a permission wins over a public one.
 * @example entityScreenPath('x', 'detail', 5) // '/admin/x/5'
 */
export function entityScreenPath(entity: string, kinds: ScreenDefinition['kind'][], id?: number | string, ability?: PortalAbility): string | undefined {
  const wantsId = id !== undefined;
  const candidates = screens.filter((s) => s.entity === entity && kinds.includes(s.kind) && s.route.includes(':id') === wantsId && !s.options?.view && (!ability || canOpen(ability, s.permission)));
  // A public page of the entity (a form for citizens) is an entry point, not where the
  // entity's own buttons lead — whatever its place in the menu.
  const screen = candidates.find((s) => s.permission !== 'public') ?? candidates[0];
  return screen && fillRoute(screen.route, id);
}

/** A screen's route with `:id` replaced. */
export const fillRoute = (route: string, id?: number | string): string =>
  id === undefined ? route : route.replace(':id', encodeURIComponent(String(id)));

/** Other screens of the entity that work on one record (e.g. a wizard over part of it). */
export const recordViews = (entity: string, ability?: PortalAbility): ScreenDefinition[] =>
  screens.filter((s) => s.entity === entity && s.route.includes(':id') && Boolean(s.options?.view) && (!ability || canOpen(ability, s.permission)));
