/**
 * The saved view in force on a list: its id lives in the URL (`view`), beside the filters and
 * sort it set, so a reload or a link keeps it; its columns (order, shown, widths) are applied
 * to the grid once the views are loaded. Picking a view writes its filters and sort into the
 * URL; moving or resizing a column changes the layout that "Save current view as…" keeps.
 */
import { useCallback, useEffect, useState } from 'react';
import type { SetURLSearchParams } from 'react-router-dom';
import type { GridDefinition } from '../../generated/meta.ts';
import { useGetViews } from '../../client/react/hooks.ts';
import { signedIn } from '../../client/session.ts';
import type { SavedView, SavedViewColumn, SavedViewState } from '../../shared/saved-views.ts';
import { readListState, writeListState, type ListState } from './list-state.ts';

/** The query-string name of the view in force. */
export const VIEW_PARAM = 'view';

/** The saved view in force, the grid's column layout, and how to pick, apply and save. */
export function useSavedView(
  screen: string,
  grid: GridDefinition,
  state: ListState,
  searchParams: URLSearchParams,
  setSearchParams: SetURLSearchParams,
) {
  const enabled = signedIn();
  const views = useGetViews(screen, enabled);
  const viewId = Number(searchParams.get(VIEW_PARAM)) || undefined;
  const [layout, setLayout] = useState<SavedViewColumn[] | undefined>();
  const [appliedId, setAppliedId] = useState<number | undefined>();
  // After a reload the URL names the view; its columns come back when the views arrive.
  useEffect(() => {
    if (viewId === appliedId) return;
    const view = views.data?.find((v) => v.id === viewId);
    if (view) {
      setLayout(view.state.columns.length ? view.state.columns : undefined);
      setAppliedId(viewId);
    }
  }, [viewId, appliedId, views.data]);

  const apply = useCallback(
    (view: SavedView | undefined) => {
      setSearchParams((prev) => {
        if (!view) {
          const next = new URLSearchParams(prev);
          next.delete(VIEW_PARAM);
          return next;
        }
        const listed = readListState(prev, grid);
        const next = writeListState(
          { ...listed, filters: { ...view.state.filters }, sort: [...view.state.sort], page: 1 },
          grid,
          prev,
        );
        next.set(VIEW_PARAM, String(view.id));
        return next;
      });
      setLayout(view?.state.columns.length ? view.state.columns : undefined);
      setAppliedId(view?.id);
    },
    [grid, setSearchParams],
  );

  const snapshot = useCallback(
    (): SavedViewState => ({
      filters: { ...state.filters },
      sort: state.sort.map((s) => ({ field: s.field, desc: s.desc })),
      columns: layout ?? grid.columns.map((c) => ({ field: c.field, ...(c.hidden ? { hidden: true } : {}) })),
    }),
    [state, layout, grid],
  );

  return { enabled, viewId, layout, setLayout, apply, snapshot };
}
