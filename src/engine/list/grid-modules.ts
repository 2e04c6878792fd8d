/**
 * The AG Grid modules the list's grid uses (ListGrid's `modules` prop) — only these, rather than
 * `AllCommunityModule`, whose filters, editors, pagination, CSV export and the rest the portal
 * does not use (they are its own: filters, pager and export are the list screen's, over the API).
 * A feature whose module is missing makes the grid log an error naming the module: add it here.
 *
 * Already in the grid's core (`CommunityCoreModule`, always there): the sort state and header
 * arrows (`SortModule`), column resize and move (the saved view's widths and order), flex
 * columns, wrapped auto-height headers, overlays, keyboard navigation, React cell renderers
 * and the default theme (Quartz, with the theming API).
 */
import {
  CellStyleModule,
  ClientSideRowModelModule,
  ColumnApiModule,
  RowSelectionModule,
  TooltipModule,
  type Module,
} from 'ag-grid-community';

/** Every list's grid. */
export const GRID_MODULES: Module[] = [
  // `rowData`: the rows of one server page, kept in the server's order (the columns' comparator
  // says "equal"); the grid only draws the sort.
  ClientSideRowModelModule,
  // `type: 'rightAligned'` (a cell class): numbers and money right-aligned.
  CellStyleModule,
  // `api.getColumnState()`: the sort read back after a header click, and the columns' order,
  // widths and visibility for "Save current view as…".
  ColumnApiModule,
  // `headerTooltip` and `tooltipValueGetter` (with `enableBrowserTooltips`): a header's and a
  // clipped cell's whole text on hover.
  TooltipModule,
];

/** A list with a bulk action (e.g. merge): rows are also selected by checkbox (`rowSelection`). */
export const SELECTING_GRID_MODULES: Module[] = [...GRID_MODULES, RowSelectionModule];
