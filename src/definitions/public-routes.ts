import type { ScreenDefinition } from '../generated/meta.ts';
import { canOpen, createAbility, rulesFromPermissions } from '../shared/ability.ts';

/**
 * The public routes: those of the screens a signed-out visitor may open (`public`, or a
 * permission the access definition grants guests) whose route has no parameters — what the
 * build prerenders and what the Lighthouse bench and the layout browser test visit, in the
 * screens' order.
 * @example publicRoutes(screens, access.guest.permissions) // ['/', '/murojaat', …]
 */
export function publicRoutes(screens: Iterable<ScreenDefinition>, guestPermissions: readonly string[]): string[] {
  const guest = createAbility(rulesFromPermissions(guestPermissions));
  return [...screens]
    .filter((s) => !s.route.includes(':') && !s.route.includes('*') && canOpen(guest, s.permission, false))
    .map((s) => s.route);
}
