/**
 * Which of a grid's filters the list shows in its bar and which wait behind "More filters":
 * the keyword box and the filters `grid.json` marks `primary`, at most {@link MAX_SHOWN_FILTERS}
 * in all; a grid without marks shows its first ones. Shared by the list screen and
 * `npm run check` (which refuses more marks than fit).
 */
import type { GridDefinition } from '../generated/meta.ts';

type Filter = GridDefinition['filters'][number];

/** How many filters the bar shows before "More filters" (the keyword box counts). */
export const MAX_SHOWN_FILTERS = 4;

/** The filters shown in the bar, in the grid's order: the keyword box and the primary ones. */
export const markedFilters = (filters: readonly Filter[]): Filter[] =>
  filters.filter((f) => f.kind === 'keyword' || f.primary === true);

/**
 * The grid's filters split into those shown in the bar and the rest (behind "More filters").
 * @example splitFilters(grid.filters).shown.length <= MAX_SHOWN_FILTERS // true
 */
export function splitFilters(filters: readonly Filter[]): { shown: Filter[]; more: Filter[] } {
  const anyPrimary = filters.some((f) => f.primary === true);
  const chosen = (anyPrimary ? markedFilters(filters) : [...filters]).slice(0, MAX_SHOWN_FILTERS);
  const names = new Set(chosen.map((f) => f.name));
  return { shown: chosen, more: filters.filter((f) => !names.has(f.name)) };
}
