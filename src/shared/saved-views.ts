/**
 * A saved view of a list (issue #17): a name a user gives to the list as they arranged it —
 * filters (the query values list-search takes), sort, and the columns shown, their order and
 * widths. Stored per user and list screen (`/api/views/{screen}`); checked against the list's
 * grid here, on both sides, so that a view naming a filter or column the list does not have
 * (any more) is refused with a plain message instead of breaking the list.
 */
import type { GridDefinition } from '../generated/meta.ts';
import { FILTER_KINDS } from './filter-kinds.ts';

/** One column as the view shows it; the array's order is the columns' order. */
export interface SavedViewColumn {
  field: string;
  hidden?: boolean;
  width?: number;
}

/** What a view keeps. */
export interface SavedViewState {
  filters: Record<string, string>;
  sort: Array<{ field: string; desc: boolean }>;
  columns: SavedViewColumn[];
}

/** A stored view. */
export interface SavedView {
  id: number;
  name: string;
  state: SavedViewState;
}

/** The longest view name. */
export const VIEW_NAME_MAX = 80;

/** JSON Schema of a view's state (the route's body; the grid is checked by {@link viewProblems}). */
export const SAVED_VIEW_STATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['filters', 'sort', 'columns'],
  properties: {
    filters: {
      type: 'object',
      maxProperties: 100,
      additionalProperties: { type: 'string', maxLength: 2000 },
    },
    sort: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['field', 'desc'],
        properties: { field: { type: 'string', maxLength: 300 }, desc: { type: 'boolean' } },
      },
    },
    columns: {
      type: 'array',
      maxItems: 200,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['field'],
        properties: {
          field: { type: 'string', maxLength: 300 },
          hidden: { type: 'boolean' },
          width: { type: 'integer', minimum: 40, maximum: 2000 },
        },
      },
    },
  },
} as const;

/** A view's problem: an i18n key (section `list`) and the name it is about. */
export interface ViewProblem {
  key: 'list.viewUnknownFilter' | 'list.viewUnknownSort' | 'list.viewUnknownColumn';
  name: string;
}

/**
 * What in a view the grid does not have: filters it does not take, sorts on fields it does not
 * sort by, columns it does not show. Empty when the view fits the list.
 * @example viewProblems({ filters: { ghost: '1' }, sort: [], columns: [] }, grid) // [{ key: 'list.viewUnknownFilter', name: 'ghost' }]
 */
export function viewProblems(state: SavedViewState, grid: GridDefinition): ViewProblem[] {
  const params = new Set(grid.filters.flatMap((f) => FILTER_KINDS[f.kind].params(f.name)));
  const sortable = new Set([
    ...grid.columns.filter((c) => c.sortable).map((c) => c.field),
    ...grid.defaultSort.map((s) => s.field),
  ]);
  const columns = new Set(grid.columns.map((c) => c.field));
  return [
    ...Object.keys(state.filters)
      .filter((name) => !params.has(name))
      .map((name) => ({ key: 'list.viewUnknownFilter' as const, name })),
    ...state.sort
      .filter((s) => !sortable.has(s.field))
      .map((s) => ({ key: 'list.viewUnknownSort' as const, name: s.field })),
    ...state.columns
      .filter((c) => !columns.has(c.field))
      .map((c) => ({ key: 'list.viewUnknownColumn' as const, name: c.field })),
  ];
}
