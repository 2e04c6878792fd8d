import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createAbility, type PortalAbility } from '../shared/ability.ts';
import { getSetting } from './settings.ts';

const AbilityContext = createContext<PortalAbility>(createAbility([{ action: 'read', subject: 'all' }]));

/** Provides the CASL ability built from the persisted permission rules. */
export function AbilityProvider({ children }: { children: ReactNode }) {
  const ability = useMemo(() => createAbility(getSetting('permissionRules')), []);
  return <AbilityContext.Provider value={ability}>{children}</AbilityContext.Provider>;
}

export const useAbility = (): PortalAbility => useContext(AbilityContext);
