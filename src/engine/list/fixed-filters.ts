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

/**
 * The query a list's "create" link carries: the values of its fixed equality filters on
 * top-level fields (`?kind=bakery` from the bakeries' list), which the new record's form reads
 * as its initial values — a record made from a list belongs in that list.
 * @example createQueryOf(def, { kind: 'bakery' }) // '?kind=bakery'
 */
export function createQueryOf(def: EntityDefinition, fixed: Record<string, string>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(fixed)) {
    const filter = def.grid.filters.find((f) => f.name === name);
    if (filter?.kind === 'eq' && filter.field && /^\/[^/]+$/.test(filter.field))
      query.set(filter.field.slice(1), value);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}
