/**
 * The list's table: ag-grid (community, client-side row model) showing one server page.
 * Sorting is the server's: the grid only draws the header arrows (multi-sort with
 * shift-click) and reports the new sort; its own comparator keeps the server's order.
 */
import { useEffect, useMemo, useRef } from 'react';
import { AgGridReact, type CustomCellRendererProps } from 'ag-grid-react';
import type {
  CellKeyDownEvent,
  GridApi,
  GridReadyEvent,
  ColumnMovedEvent,
  ColumnResizedEvent,
  ColDef,
  RowClickedEvent,
  SelectionChangedEvent,
  SortChangedEvent,
} from 'ag-grid-community';
import { Badge, makeStyles, type BadgeProps } from '@fluentui/react-components';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { StoredRecord } from '../../client/data-provider.ts';
import { resolveColumnFormat, statesKeyOf, statusLabel, type FormatContext } from '../../shared/format.ts';
import { valueAt } from '../../shared/pointer.ts';
import { CELL_FORMATS, formatCell } from '../../shared/cell-formats.ts';
import type { SortItem } from './list-state.ts';
import { minColumnWidth } from './column-widths.ts';
import { GRID_MODULES, SELECTING_GRID_MODULES } from './grid-modules.ts';
import type { SavedViewColumn } from '../../shared/saved-views.ts';

/** The grid's columns in a saved view's order; columns the view does not name keep their place after. */
function orderedColumns<C extends { field: string }>(
  columns: readonly C[],
  layout: readonly SavedViewColumn[] | undefined,
): C[] {
  if (!layout) return [...columns];
  const rank = new Map(layout.map((c, i) => [c.field, i]));
  return columns
    .map((c, i) => ({ c, key: rank.get(c.field) ?? layout.length + i }))
    .sort((a, b) => a.key - b.key)
    .map(({ c }) => c);
}

export type StatusColor = NonNullable<BadgeProps['color']>;

export interface ListGridProps {
  def: EntityDefinition;
  rows: StoredRecord[];
  /** The sort in force (the user's or the grid's default), drawn as header arrows. */
  sort: SortItem[];
  /** The user changed the sort (an empty list: back to the default). */
  onSortChange(sort: SortItem[]): void;
  /** A row was clicked or Enter was pressed on it. */
  onOpen?(row: StoredRecord): void;
  format: FormatContext;
  /** Badge colour of a status. */
  statusColor(status: string): StatusColor;
  /** Translates a column title key. */
  title(key: string): string;
  /** Rows can be selected by checkbox (for a bulk action); called with the selected ids. */
  onSelect?(ids: number[]): void;
  /** Every status the records can have: the status column is as wide as the longest label. */
  statuses?: readonly string[];
  /** The columns' order, visibility and widths of a saved view; absent: the grid's own. */
  layout?: readonly SavedViewColumn[] | undefined;
  /** A column was moved or resized by hand: the layout as it is now. */
  onLayoutChange?(layout: SavedViewColumn[]): void;
}

/** The layout the grid shows now (widths only of columns sized by hand, not flexed). */
export function layoutFromColumnState(
  state: ReadonlyArray<{ colId: string; hide?: boolean | null; width?: number | null; flex?: number | null }>,
): SavedViewColumn[] {
  return state
    .filter((c) => c.colId.startsWith('/'))
    .map((c) => ({
      field: c.colId,
      ...(c.hide ? { hidden: true } : {}),
      ...(!c.flex && c.width ? { width: Math.round(c.width) } : {}),
    }));
}

const useStyles = makeStyles({
  grid: {
    width: '100%',
    '& .ag-row': { cursor: 'pointer' },
  },
  plain: { width: '100%' },
  // The badge decides its width: its column is made wide enough, so it is never clipped.
  badge: { maxWidth: 'none', whiteSpace: 'nowrap', flexShrink: 0, overflow: 'visible' },
});

/** The status cell: a localized badge. */
function StatusCell(
  props: CustomCellRendererProps<StoredRecord> & {
    format: FormatContext;
    statusColor: ListGridProps['statusColor'];
    statesKey: string;
  },
) {
  const styles = useStyles();
  const value = props.value as string | undefined;
  if (!value) return null;
  return (
    <Badge
      className={styles.badge}
      appearance="tint"
      shape="rounded"
      color={props.statusColor(value)}
      data-status={value}
    >
      {statusLabel(value, props.format.translate, props.statesKey)}
    </Badge>
  );
}

/** Reads the grid's column state back into sort items (ordered by sort index). */
export function sortFromColumnState(
  state: ReadonlyArray<{ colId: string; sort?: 'asc' | 'desc' | null; sortIndex?: number | null }>,
): SortItem[] {
  return state
    .filter((s) => s.sort === 'asc' || s.sort === 'desc')
    .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
    .map((s) => ({ field: s.colId, desc: s.sort === 'desc' }));
}

/** Sets the grid's header arrows to `sort` (the columns it does not name: unsorted), unless they show it. */
function applySort(api: GridApi<StoredRecord>, sort: readonly SortItem[]): void {
  if (sameSort(sortFromColumnState(api.getColumnState()), sort)) return;
  api.applyColumnState({
    state: sort.map((s, i) => ({
      colId: s.field,
      sort: s.desc ? 'desc' : 'asc',
      sortIndex: sort.length > 1 ? i : null,
    })),
    defaultState: { sort: null, sortIndex: null },
  });
}

const sameSort = (a: readonly SortItem[], b: readonly SortItem[]): boolean =>
  a.length === b.length && a.every((s, i) => s.field === b[i]!.field && s.desc === b[i]!.desc);

/** The grid of one list page. */
export default function ListGrid({
  def,
  rows,
  sort,
  onSortChange,
  onOpen,
  format,
  statusColor,
  title,
  onSelect,
  statuses = [],
  layout,
  onLayoutChange,
}: ListGridProps) {
  const styles = useStyles();
  const sortableFields = useMemo(() => new Set(def.grid.defaultSort.map((s) => s.field)), [def]);
  // Widths from this page's texts; the columns are rebuilt only when a width changes (a new
  // page of texts as long as the last keeps the grid's columns, and its sort state, as they are).
  const widthKey = def.grid.columns
    .map((column) => {
      const statesKey = statesKeyOf(def.manifest);
      const cellFormat = resolveColumnFormat(column, def.schema, statesKey);
      const badge = CELL_FORMATS[cellFormat.kind].badge === true;
      return minColumnWidth({
        header: title(column.titleKey),
        texts: badge
          ? statuses.map((st) => statusLabel(st, format.translate, statesKey))
          : rows.map((row) => formatCell(valueAt(row, column.field), cellFormat, format)),
        badge,
      });
    })
    .join(',');
  const minWidths = useMemo<Record<string, number>>(() => {
    const widths = widthKey.split(',').map(Number);
    return Object.fromEntries(def.grid.columns.map((c, i) => [c.field, widths[i] ?? 0]));
  }, [widthKey, def]);
  // The sort in force: read by the handlers the grid keeps (they may be a render behind) and by
  // columns as they are created; a new sort does not rebuild the columns.
  const sortRef = useRef(sort);
  sortRef.current = sort;
  const columnDefs = useMemo<ColDef<StoredRecord>[]>(
    () =>
      orderedColumns(def.grid.columns, layout).map((column) => {
        const placed = layout?.find((c) => c.field === column.field);
        const statesKey = statesKeyOf(def.manifest);
        const cellFormat = resolveColumnFormat(column, def.schema, statesKey);
        const shown = CELL_FORMATS[cellFormat.kind];
        const sort = sortRef.current;
        const index = sort.findIndex((s) => s.field === column.field);
        const active = index >= 0 ? sort[index]! : undefined;
        const header = title(column.titleKey);
        const minWidth = minWidths[column.field] ?? 0;
        return {
          colId: column.field,
          headerName: header,
          // Headers wrap between words (the column is at least as wide as the longest word), and
          // the whole text is also the header's tooltip.
          headerTooltip: header,
          wrapHeaderText: true,
          autoHeaderHeight: true,
          minWidth,
          valueGetter: (p) => valueAt(p.data, column.field),
          valueFormatter: (p) => formatCell(p.value, cellFormat, format),
          // A text longer than its column ends in …: its whole text on hover.
          ...(shown.badge ? {} : { tooltipValueGetter: (p) => p.valueFormatted ?? undefined }),
          sortable: column.sortable === true || sortableFields.has(column.field),
          // The server sorted the page already; equal keeps its order (the grid's sort is stable).
          comparator: () => 0,
          // No "unsorted" step: a server list always has an order, and without it a column that
          // is the default sort (say descending) could never be turned ascending.
          sortingOrder: ['asc', 'desc'],
          // The sort is the grid's state, set once here and then by `applySort` (below): a sort in
          // the column definitions would be applied again on every rebuild (a new page's widths),
          // undoing a header click the URL has not caught up with yet.
          initialSort: active ? (active.desc ? 'desc' : 'asc') : null,
          ...(active && sort.length > 1 ? { initialSortIndex: index } : {}),
          hide: placed ? placed.hidden === true : column.hidden === true,
          ...(placed?.width
            ? { width: Math.max(placed.width, minWidth), flex: null }
            : column.width
              ? { width: Math.max(column.width, minWidth) }
              : { flex: 1 }),
          ...(shown.numeric ? { type: 'rightAligned' } : {}),
          ...(shown.badge ? { cellRenderer: StatusCell, cellRendererParams: { format, statusColor, statesKey } } : {}),
        } satisfies ColDef<StoredRecord>;
      }),
    [def, format, statusColor, title, sortableFields, minWidths, layout],
  );

  const apiRef = useRef<GridApi<StoredRecord> | undefined>(undefined);
  // A new sort from outside (the URL: a link, back, a saved view) is drawn on the headers. Only a
  // new value counts: a late render of an older URL (the same sort read again) must not undo a
  // header click whose own URL has not arrived yet.
  const shownSort = useRef(sort);
  useEffect(() => {
    if (sameSort(shownSort.current, sort)) return;
    shownSort.current = sort;
    if (apiRef.current) applySort(apiRef.current, sort);
  }, [sort]);

  // Only a person's header click is a new sort; the grid's own changes (applySort) are not.
  const onSortChanged = (event: SortChangedEvent<StoredRecord>) => {
    if (event.source !== 'uiColumnSorted') return;
    const next = sortFromColumnState(event.api.getColumnState());
    if (!sameSort(next, sortRef.current)) onSortChange(next);
  };

  return (
    <div className={onOpen ? styles.grid : styles.plain} data-entity={def.id} data-grid={def.id}>
      <AgGridReact<StoredRecord>
        modules={onSelect ? SELECTING_GRID_MODULES : GRID_MODULES}
        {...(onSelect
          ? {
              rowSelection: {
                mode: 'multiRow' as const,
                checkboxes: true,
                headerCheckbox: true,
                enableClickSelection: false,
              },
              onSelectionChanged: (e: SelectionChangedEvent<StoredRecord>) =>
                onSelect(e.api.getSelectedRows().map((r) => r.id)),
            }
          : {})}
        rowData={rows}
        // The header's tooltip is the browser's own (a title), shown at once and read by screen readers.
        enableBrowserTooltips
        columnDefs={columnDefs}
        getRowId={(p) => String(p.data.id)}
        domLayout="autoHeight"
        // A page has at most 100 rows: render them all (the page grows, no inner scrollbar).
        suppressColumnVirtualisation
        suppressRowVirtualisation
        loading={false}
        suppressNoRowsOverlay
        onSortChanged={onSortChanged}
        onGridReady={(e: GridReadyEvent<StoredRecord>) => {
          apiRef.current = e.api;
          applySort(e.api, sortRef.current);
        }}
        // The user's own arrangement, for "Save current view as…".
        onColumnResized={(e: ColumnResizedEvent<StoredRecord>) => {
          if (e.finished && e.source === 'uiColumnResized')
            onLayoutChange?.(layoutFromColumnState(e.api.getColumnState()));
        }}
        onColumnMoved={(e: ColumnMovedEvent<StoredRecord>) => {
          if (e.finished && e.source === 'uiColumnMoved')
            onLayoutChange?.(layoutFromColumnState(e.api.getColumnState()));
        }}
        onRowClicked={onOpen ? (e: RowClickedEvent<StoredRecord>) => e.data && onOpen(e.data) : undefined}
        onCellKeyDown={
          onOpen
            ? (e: CellKeyDownEvent<StoredRecord>) => {
                if ((e.event as KeyboardEvent | undefined)?.key === 'Enter' && e.data) onOpen(e.data);
              }
            : undefined
        }
      />
    </div>
  );
}
