import type { ScreenDefinition } from '../generated/meta.ts';

/** What every screen kind receives: its definition (route params come from the router). */
export interface ScreenProps {
  screen: ScreenDefinition;
}

export type ScreenKind = ScreenDefinition['kind'];
