/**
 * The data provider's methods for saved views of lists (`/api/views/{screen}`): the signed-in
 * user's own views of a list screen — name, filters, sort and columns.
 */
import type { HttpClient } from '../http.ts';
import type { SavedView, SavedViewState } from '../../shared/saved-views.ts';

export type { SavedView, SavedViewState } from '../../shared/saved-views.ts';

export interface ViewMethods {
  /** My views of a list screen, by name. */
  getViews(screen: string): Promise<SavedView[]>;
  /** Saves the list as arranged under a name; the same name replaces that view. */
  saveView(screen: string, name: string, state: SavedViewState): Promise<SavedView>;
  /** Deletes one of my views. */
  deleteView(screen: string, id: number): Promise<void>;
}

/** Creates the view methods over an HTTP client. */
export function createViewMethods(http: HttpClient): ViewMethods {
  const base = (screen: string) => `/api/views/${encodeURIComponent(screen)}`;
  return {
    getViews: async (screen) => (await http.request<{ list: SavedView[] }>('GET', base(screen))).list,
    saveView: (screen, name, state) => http.request('POST', base(screen), { body: { name, state } }),
    deleteView: async (screen, id) => {
      await http.request('DELETE', `${base(screen)}/${id}`);
    },
  };
}
