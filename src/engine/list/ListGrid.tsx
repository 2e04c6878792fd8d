/**
 * The list's table: ag-grid (community, client-side row model) showing one server page.
 * Sorting is the server's: the grid only draws the header arrows (multi-sort with
 * shift-click) and reports the new sort; its own comparator keeps the server's order.
 */
import { useMemo } from 'react';
import { AgGridReact, type CustomCellRendererProps } from 'ag-grid-react';
import {
  CellStyleModule,
  ClientSideRowModelModule,
  ColumnApiModule,
  RowSelectionModule,
  type CellKeyDownEvent,
  type ColDef,
  type RowClickedEvent,
  type SelectionChangedEvent,
  type SortChangedEvent,
} from 'ag-grid-community';
import { Badge, makeStyles, type BadgeProps } from '@fluentui/react-components';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { StoredRecord } from '../../client/data-provider.ts';
import { resolveColumnFormat, statesKeyOf, statusLabel, type FormatContext } from '../../shared/format.ts';
import { valueAt } from '../../shared/pointer.ts';
import { CELL_FORMATS, formatCell } from '../../shared/cell-formats.ts';
import type { SortItem } from './list-state.ts';

/**
 * Only what the list uses: the client-side row model (which brings sorting), cell classes
 * (right-aligned numbers) and the column API (reading the sort back).
 */
const GRID_MODULES = [ClientSideRowModelModule, CellStyleModule, ColumnApiModule];
/** Lists with a bulk action (e.g. merge) also select rows by checkbox. */
const SELECTING_MODULES = [...GRID_MODULES, RowSelectionModule];

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
}

const useStyles = makeStyles({
  grid: {
    width: '100%',
    '& .ag-row': { cursor: 'pointer' },
  },
  plain: { width: '100%' },
});

/** The status cell: a localized badge. */
function StatusCell(
  props: CustomCellRendererProps<StoredRecord> & {
    format: FormatContext;
    statusColor: ListGridProps['statusColor'];
    statesKey: string;
  },
) {
  const value = props.value as string | undefined;
  if (!value) return null;
  return (
    <Badge appearance="tint" shape="rounded" color={props.statusColor(value)} data-status={value}>
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
}: ListGridProps) {
  const styles = useStyles();
  const sortableFields = useMemo(() => new Set(def.grid.defaultSort.map((s) => s.field)), [def]);
  const columnDefs = useMemo<ColDef<StoredRecord>[]>(
    () =>
      def.grid.columns.map((column) => {
        const statesKey = statesKeyOf(def.manifest);
        const cellFormat = resolveColumnFormat(column, def.schema, statesKey);
        const shown = CELL_FORMATS[cellFormat.kind];
        const index = sort.findIndex((s) => s.field === column.field);
        const active = index >= 0 ? sort[index]! : undefined;
        return {
          colId: column.field,
          headerName: title(column.titleKey),
          valueGetter: (p) => valueAt(p.data, column.field),
          valueFormatter: (p) => formatCell(p.value, cellFormat, format),
          sortable: column.sortable === true || sortableFields.has(column.field),
          // The server sorted the page already; equal keeps its order (the grid's sort is stable).
          comparator: () => 0,
          // No "unsorted" step: a server list always has an order, and without it a column that
          // is the default sort (say descending) could never be turned ascending.
          sortingOrder: ['asc', 'desc'],
          sort: active ? (active.desc ? 'desc' : 'asc') : null,
          sortIndex: active && sort.length > 1 ? index : null,
          hide: column.hidden === true,
          ...(column.width ? { width: column.width } : { flex: 1, minWidth: 120 }),
          ...(shown.numeric ? { type: 'rightAligned' } : {}),
          ...(shown.badge ? { cellRenderer: StatusCell, cellRendererParams: { format, statusColor, statesKey } } : {}),
        } satisfies ColDef<StoredRecord>;
      }),
    [def, sort, format, statusColor, title, sortableFields],
  );

  const onSortChanged = (event: SortChangedEvent<StoredRecord>) => {
    const next = sortFromColumnState(event.api.getColumnState());
    if (!sameSort(next, sort)) onSortChange(next);
  };

  return (
    <div className={onOpen ? styles.grid : styles.plain} data-entity={def.id} data-grid={def.id}>
      <AgGridReact<StoredRecord>
        modules={onSelect ? SELECTING_MODULES : GRID_MODULES}
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
        columnDefs={columnDefs}
        getRowId={(p) => String(p.data.id)}
        domLayout="autoHeight"
        // A page has at most 100 rows: render them all (the page grows, no inner scrollbar).
        suppressColumnVirtualisation
        suppressRowVirtualisation
        loading={false}
        suppressNoRowsOverlay
        onSortChanged={onSortChanged}
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
