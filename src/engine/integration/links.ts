/**
 * How the integration pages lead to each other without naming one another: the screens of kind
 * `integration` by their view, and an agency's page with its id filled in.
 */
import type { ScreenDefinition } from '../../generated/meta.ts';
import { screens } from '../../definitions/client.ts';
import { canOpen, type PortalAbility } from '../../shared/ability.ts';

/** The first integration screen of a view the ability may open (every one without an ability). */
export function integrationScreen(view: string, ability?: PortalAbility): ScreenDefinition | undefined {
  return screens.find(
    (s) => s.kind === 'integration' && s.options?.view === view && (!ability || canOpen(ability, s.permission)),
  );
}

/**
 * The page of one agency: the `agency` view's route with `:agency` filled in.
 * @example agencyPath('soliq') // '/admin/integrations/soliq'
 */
export function agencyPath(agency: string, ability?: PortalAbility): string | undefined {
  const screen = integrationScreen('agency', ability);
  return screen?.route.replace(':agency', encodeURIComponent(agency));
}
