/**
 * The state of a list screen and how it lives in the URL query string: filters under the
 * names list-search takes (`statusId`, `createdDateFrom`…), `sort` (`-createdAt,id`) and a
 * 1-based `page`. Links, reloads and back/forward therefore keep a list as it was.
 * The page size is not in the URL: it is a per-screen preference (settings `itemsPerPage`).
 */
import type { GridDefinition } from '../../generated/meta.ts';
import type { ListParams } from '../../client/data-provider.ts';
import { getSetting, setSetting } from '../../client/settings.ts';
import { sortName } from '../../shared/format.ts';
import { FILTER_KINDS } from '../../shared/filter-kinds.ts';

/** Page sizes offered (spec §9). */
export const PAGE_SIZES = [10, 20, 30, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

/** Query-string names the list itself uses; a grid filter must not be called like these. */
export const PAGE_PARAM = 'page';
export const SORT_PARAM = 'sort';

/** One sort key: a record pointer and its direction. */
export interface SortItem {
  field: string;
  desc: boolean;
}

/** What the URL says about a list. */
export interface ListState {
  /** Filter values by query name, only the non-empty ones. */
  filters: Record<string, string>;
  /** The user's sort; empty means the grid's default sort. */
  sort: SortItem[];
  /** 1-based, as shown. */
  page: number;
}

type Filter = GridDefinition['filters'][number];

/** The query names one filter occupies: ranges use `<name>From`/`<name>To`, a date range also `<name>` (the filter kind's `params`). */
export const filterParamNames = (filter: Filter): string[] => FILTER_KINDS[filter.kind].params(filter.name);

/** Every query name the grid's filters occupy. */
export const allFilterParams = (grid: GridDefinition): string[] => grid.filters.flatMap(filterParamNames);

/** Pointers the user may sort by: sortable columns and the default sort's fields. */
export const sortableFields = (grid: GridDefinition): Set<string> =>
  new Set([...grid.columns.filter((c) => c.sortable).map((c) => c.field), ...grid.defaultSort.map((s) => s.field)]);

/**
 * Parses `-createdAt,customer.surname` into sort items, dropping fields the grid does not
 * sort by (a stale or hand-edited link must not break the list with a 400).
 * @example parseSort('-createdAt', grid) // [{ field: '/createdAt', desc: true }]
 */
export function parseSort(text: string | null, grid: GridDefinition): SortItem[] {
  const allowed = sortableFields(grid);
  const seen = new Set<string>();
  const items: SortItem[] = [];
  for (const part of (text ?? '').split(',')) {
    const token = part.trim();
    if (!token) continue;
    const desc = token.startsWith('-');
    const name = desc ? token.slice(1) : token;
    const field = name.startsWith('/') ? name : `/${name.split('.').join('/')}`;
    if (allowed.has(field) && !seen.has(field)) {
      seen.add(field);
      items.push({ field, desc });
    }
  }
  return items;
}

/** The inverse of `parseSort`. */
export const formatSort = (items: readonly SortItem[]): string =>
  items.map((s) => `${s.desc ? '-' : ''}${sortName(s.field)}`).join(',');

/** Reads the list state from the query string. */
export function readListState(params: URLSearchParams, grid: GridDefinition): ListState {
  const filters: Record<string, string> = {};
  for (const name of allFilterParams(grid)) {
    const value = params.get(name);
    if (value !== null && value !== '') filters[name] = value;
  }
  const page = Number.parseInt(params.get(PAGE_PARAM) ?? '', 10);
  return {
    filters,
    sort: parseSort(params.get(SORT_PARAM), grid),
    page: Number.isFinite(page) && page >= 1 ? page : 1,
  };
}

/**
 * Writes the list state into a copy of `base`, keeping parameters that are not the list's.
 * Page 1 and the default sort are left out, so a plain list has a clean URL.
 */
export function writeListState(
  state: ListState,
  grid: GridDefinition,
  base: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const next = new URLSearchParams(base);
  for (const name of [...allFilterParams(grid), PAGE_PARAM, SORT_PARAM]) next.delete(name);
  for (const [name, value] of Object.entries(state.filters)) if (value !== '') next.set(name, value);
  if (state.sort.length) next.set(SORT_PARAM, formatSort(state.sort));
  if (state.page > 1) next.set(PAGE_PARAM, String(state.page));
  return next;
}

/** The sort in force: the user's, else the grid's default. */
export const effectiveSort = (sort: readonly SortItem[], grid: GridDefinition): SortItem[] =>
  sort.length ? [...sort] : grid.defaultSort.map((s) => ({ field: s.field, desc: s.desc === true }));

/** The data provider's list parameters: page sent 0-based, sort names dotted. */
export function toListParams(state: ListState, itemsPerPage: number, grid: GridDefinition): ListParams {
  const sort = effectiveSort(state.sort, grid);
  return {
    filters: { ...state.filters },
    page: state.page - 1,
    itemsPerPage,
    sortBy: sort.map((s) => sortName(s.field)),
    sortDesc: sort.map((s) => s.desc),
  };
}

const isPageSize = (n: unknown): n is number => (PAGE_SIZES as readonly unknown[]).includes(n);

/** The page size chosen on this screen before, else 20. */
export function storedPageSize(screenId: string): number {
  const stored = getSetting('itemsPerPage')[screenId];
  return isPageSize(stored) ? stored : DEFAULT_PAGE_SIZE;
}

/** Remembers the page size chosen on this screen. */
export function storePageSize(screenId: string, size: number): void {
  if (!isPageSize(size)) return;
  setSetting('itemsPerPage', { ...getSetting('itemsPerPage'), [screenId]: size });
}

/**
 * Applies changed filter values: empty values are removed, and a filter whose parent
 * changed (district under region) is cleared, since its old value may not belong to the new parent.
 */
export function applyFilterPatch(
  values: Readonly<Record<string, string>>,
  patch: Readonly<Record<string, string>>,
  grid: GridDefinition,
): Record<string, string> {
  const next: Record<string, string> = { ...values };
  const cleared = new Set<string>();
  const clearChildren = (parent: string) => {
    for (const child of grid.filters.filter((f) => f.parentFilter === parent)) {
      if (cleared.has(child.name)) continue;
      cleared.add(child.name);
      for (const name of filterParamNames(child)) delete next[name];
      clearChildren(child.name);
    }
  };
  for (const [name, value] of Object.entries(patch)) {
    if (value === '') delete next[name];
    else next[name] = value;
    if ((values[name] ?? '') !== value) clearChildren(name);
  }
  return next;
}

/**
 * A list screen's fixed filters (screen `options.fixedFilters`): the grid without those
 * filters, so the list neither offers nor shows them, and the params with their values, so
 * every search (and the export) sends them.
 * @example withFixedFilters(grid, { toMyDepartment: 'true' }).params(params)
 */
export function withFixedFilters(grid: GridDefinition, fixed: Readonly<Record<string, string>> | undefined) {
  const names = new Set(Object.keys(fixed ?? {}));
  return {
    grid: names.size ? { ...grid, filters: grid.filters.filter((f) => !names.has(f.name)) } : grid,
    params: (params: ListParams): ListParams =>
      names.size ? { ...params, filters: { ...params.filters, ...fixed } } : params,
  };
}
