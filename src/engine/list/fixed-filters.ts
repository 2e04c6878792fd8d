/**
 * A list screen's `fixedFilters` (screen options): filter values the screen always applies —
 * "commission projects" is the project list with `projectType=COMMISSION` — so one entity has
 * several lists in the menu without a line of code. The fixed filters' controls are left out
 * (the user cannot widen the list past what the screen is for), and every request of the
 * list carries them.
 */
import type { EntityDefinition } from '../../definitions/registry.ts';

/** The filter values of the screen's options, as query values. */
export function fixedFiltersOf(options: Record<string, unknown> | undefined): Record<string, string> {
  const fixed = options?.fixedFilters;
  if (!fixed || typeof fixed !== 'object') return {};
  return Object.fromEntries(Object.entries(fixed).map(([name, value]) => [name, String(value)]));
}

/**
 * The definition as the screen shows it: without the controls of its fixed filters.
 * @example withoutFixedFilters(def, { projectType: 'COMMISSION' }).grid.filters // no projectType
 */
export function withoutFixedFilters(def: EntityDefinition, fixed: Record<string, string>): EntityDefinition {
  const names = Object.keys(fixed);
  if (!names.length) return def;
  return { ...def, grid: { ...def.grid, filters: def.grid.filters.filter((f) => !names.includes(f.name)) } };
}
