import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createAbility, rulesFromPermissions, type PortalAbility } from '../../shared/ability.ts';
import { getSetting } from '../settings.ts';
// Only the guest's part: the whole matrix (every role) would ship to every visitor for nothing.
import { guest } from '../../../schemas/_access/access.json';

/**
 * A visitor who is not signed in gets the guest permissions of schemas/_access/access.json
 * — the same the server grants — rather than the legacy "read all": the UI should not offer
 * what the server will refuse.
 */
const guestRules = rulesFromPermissions(guest.permissions);

const AbilityContext = createContext<PortalAbility>(createAbility(guestRules));

/**
 * Provides the CASL ability: the signed-in user's persisted rules (permissions and field
 * rules), or the guest's; `ability` overrides both (component tests).
 */
export function AbilityProvider({ children, ability: given }: { children: ReactNode; ability?: PortalAbility }) {
  const ability = useMemo(
    () => given ?? createAbility(getSetting('accessToken') ? getSetting('permissionRules') : guestRules),
    [given],
  );
  return <AbilityContext.Provider value={ability}>{children}</AbilityContext.Provider>;
}

export const useAbility = (): PortalAbility => useContext(AbilityContext);
