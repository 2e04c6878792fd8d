/**
 * Where a user lands after signing in: back to the page that sent them to sign in, if any;
 * staff on their home (the `workspace` screen); citizens and businesses on their cabinet —
 * the first menu screen meant for outer users that their permissions open. Everything comes
 * from the screens' definitions; no route is named here.
 */
import type { ScreenDefinition } from '../generated/meta.ts';
import { screens as allScreens } from '../definitions/client.ts';
import { canOpen, createAbility, rulesFromPermissions, type PortalAbility } from '../shared/ability.ts';

/** Only paths of this portal may be returned to after sign-in (no open redirect). */
export const safeRedirect = (value: string | null | undefined): string | undefined =>
  value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : undefined;

/**
 * The route to open after a sign-in: an explicit, safe `redirect` wins; otherwise the staff
 * home for staff, the cabinet's first screen for outer users, the public home when neither exists.
 * @example landingAfterSignIn({ isOuter: false, permissions: ['manage all'] }, null) // '/admin'
 */
export function landingAfterSignIn(
  user: { isOuter: boolean; permissions: readonly string[] },
  redirect: string | null | undefined,
  screens: readonly ScreenDefinition[] = allScreens,
): string {
  const back = safeRedirect(redirect);
  if (back) return back;
  return landingRoute(user.isOuter, createAbility(rulesFromPermissions([...user.permissions])), screens);
}

/**
 * A signed-in user's own starting page: the staff home for staff, the cabinet's first screen
 * (menu order) for outer users, the public home when the definitions have neither.
 */
export function landingRoute(
  isOuter: boolean,
  ability: PortalAbility,
  screens: readonly ScreenDefinition[] = allScreens,
): string {
  const opens = (s: ScreenDefinition) => !s.route.includes(':') && canOpen(ability, s.permission, true);
  const landing = isOuter
    ? screens.find((s) => s.audience === 'outer' && s.menu && opens(s))
    : screens.find((s) => s.kind === 'workspace' && s.audience !== 'outer' && opens(s));
  return landing?.route ?? '/';
}

/** The staff home's route (the `workspace` screen), if the definitions have one: where the logo leads staff. */
export const staffHomeRoute = (screens: readonly ScreenDefinition[] = allScreens): string | undefined =>
  screens.find((s) => s.kind === 'workspace')?.route;
