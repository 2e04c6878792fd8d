/**
 * Helpers of the list screen's component tests: the screen rendered over the test entity
 * (./test-entity.ts) against a test double of the DataProvider, in a router; finders by the
 * stable selectors. Each test file mocks `../../definitions/client.ts` with
 * `definitionsClientMock` itself (a mock belongs to the file that declares it).
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import i18next from 'i18next';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { ApiProvider } from '../../client/react/context.tsx';
import type { DataProvider, ListParams, SavedViewState, StoredRecord } from '../../client/data-provider.ts';
// The whole English locale, entities' and machines' texts merged in (vite.config.ts `mergedLocales`).
import en from '../../i18n/locales/en.json';
import ListScreen from './ListScreen.tsx';
import { screens } from './test-entity.ts';

// The grid's first render in a test worker takes a moment (module setup).
configure({ asyncUtilTimeout: 20_000 });

/**
 * English texts plus the test entity's. The states' labels are the machine's; a global
 * `status.*` (retired, issue #16) would say otherwise, so a screen reading it is caught.
 */
const texts = {
  ...en,
  status: { DRAFT: 'Temporarily drafted', DONE: 'Closed for good' },
  workflow: { ...en.workflow, 'gadget-flow': { states: { DRAFT: 'Draft', DONE: 'Done' } } },
  test: {
    title: 'Gadgets',
    screen: { list: 'All gadgets' },
    col: {
      id: 'No.',
      name: 'Name',
      price: 'Price',
      madeOn: 'Made on',
      region: 'Region',
      active: 'Active',
      kind: 'Kind',
      status: 'Status',
      createdAt: 'Created',
    },
    filter: {
      keyword: 'Search',
      status: 'Status',
      region: 'Region',
      district: 'District',
      created: 'Created',
      price: 'Price',
      active: 'Active only',
      kinds: 'Kinds',
    },
    kind: { A: 'Kind A' },
  },
};

/** The reference lists the filters offer. */
const regions = [
  { id: 1, code: '01', parent: null, nameLt: 'Toshkent', nameUz: 'Тошкент', nameRu: 'Ташкент', nameEn: 'Tashkent' },
  {
    id: 2,
    code: '02',
    parent: null,
    nameLt: 'Samarqand',
    nameUz: 'Самарқанд',
    nameRu: 'Самарканд',
    nameEn: 'Samarkand',
  },
];
const districts = [
  { id: 11, code: '0101', parent: 1, nameLt: 'Chilonzor', nameUz: 'Чилонзор', nameRu: 'Чиланзар', nameEn: 'Chilanzar' },
  { id: 21, code: '0201', parent: 2, nameLt: 'Urgut', nameUz: 'Ургут', nameRu: 'Ургут', nameEn: 'Urgut' },
];

/** A stored gadget with id `id`, with `extra` applied. */
export const record = (id: number, extra: Partial<StoredRecord> = {}): StoredRecord => ({
  id,
  version: 1,
  status: 'DRAFT',
  createdAt: '2024-03-05T19:30:00.000Z',
  updatedAt: '2024-03-05T19:30:00.000Z',
  name: `Gadget ${id}`,
  price: 1234567.6,
  madeOn: '2024-03-05',
  regionId: 1,
  active: true,
  kind: 'A',
  ...extra,
});

/** The DataProvider's getList and exportUrl of the current test (reset before each), and where the router is. */
export let getList: ReturnType<typeof vi.fn<DataProvider['getList']>>;
export let exportUrl: ReturnType<typeof vi.fn<DataProvider['exportUrl']>>;
export let location = '';
/** The saved views the test double keeps (reset before each test). */
export let views: Array<{ id: number; name: string; state: SavedViewState }> = [];
export let saveView: ReturnType<typeof vi.fn<DataProvider['saveView']>>;

function Probe() {
  const l = useLocation();
  location = `${l.pathname}${l.search}`;
  return null;
}

/** Renders the list screen at `url` (the test entity's list screen, or `screen`) with the routes it navigates to. */
export function renderList(url = '/gadgets', screen: object = screens[0]!) {
  const dataProvider = {
    getList,
    exportUrl,
    getViews: vi.fn(async () => views.map((v) => structuredClone(v))),
    saveView,
    deleteView: vi.fn(async (_screen: string, id: number) => {
      views = views.filter((v) => v.id !== id);
    }),
    getReference: vi.fn(async (kind: string, parent?: number) =>
      kind === 'region' ? regions : districts.filter((d) => parent === undefined || d.parent === parent),
    ),
  } as unknown as DataProvider;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: 'en',
    resources: { en: { translation: texts } },
    interpolation: { escapeValue: false },
    initImmediate: false,
  } as never);
  return render(
    <FluentProvider theme={webLightTheme}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <ApiProvider value={{ dataProvider, reportError: vi.fn(), notifySuccess: vi.fn() }}>
            <MemoryRouter initialEntries={[url]}>
              <Probe />
              <Routes>
                <Route path="/gadgets" element={<ListScreen screen={screen as never} />} />
                <Route path="/gadgets/new" element={<p>new gadget form</p>} />
                <Route path="/gadgets/:id" element={<p>gadget detail</p>} />
              </Routes>
            </MemoryRouter>
          </ApiProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </FluentProvider>,
  );
}

/** The parameters of the last list request; a toolbar action; a filter control; the grid's rows. */
export const lastParams = (): ListParams => getList.mock.lastCall![1];
export const action = (name: string) => document.querySelector<HTMLElement>(`[data-action="${name}"]`)!;
export const filter = (name: string) => document.querySelector<HTMLElement>(`[data-filter="${name}"]`)!;
export const rows = () => [...document.querySelectorAll('[role="row"][row-id]')];

beforeEach(() => {
  localStorage.clear();
  location = '';
  views = [];
  saveView = vi.fn(async (_screen: string, name: string, state: SavedViewState) => {
    const view = { id: views.length + 1, name, state };
    views = [...views.filter((v) => v.name !== name), view];
    return view;
  });
  getList = vi.fn(async (_entity: string, p: ListParams) => ({
    list: Array.from({ length: Math.max(0, Math.min(p.itemsPerPage, 45 - p.page * p.itemsPerPage)) }, (_, i) =>
      record(p.page * p.itemsPerPage + i + 1),
    ),
    total: 45,
  }));
  exportUrl = vi.fn(
    (entity: string, p: Omit<ListParams, 'page' | 'itemsPerPage'>) =>
      `/api/${entity}/export?${new URLSearchParams({ ...(p.filters as Record<string, string>), sortBy: p.sortBy.join(',') })}`,
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
