// @vitest-environment happy-dom
/**
 * The list screen against a test double of the DataProvider, over a made-up entity (the
 * engine must not know real ones): rows and formatted cells, the list-search parameters it
 * sends for paging, sorting and filters, the remembered page size, navigation, export and
 * the empty, error and retry states.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import i18next from 'i18next';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { ApiProvider } from '../../client/react/context.tsx';
import type { DataProvider, ListParams, StoredRecord } from '../../client/data-provider.ts';
import { HttpError } from '../../client/http.ts';
import en from '../../i18n/locales/en.json';
import ListScreen, { withoutHiddenColumns } from './ListScreen.tsx';
import { FILTER_DEBOUNCE_MS } from './ListFilters.tsx';
import { sortFromColumnState } from './ListGrid.tsx';

// The grid's first render in a test worker takes a moment (module setup).
configure({ asyncUtilTimeout: 20_000 });

const fx = vi.hoisted(() => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      price: { type: 'number' },
      madeOn: { type: 'string', format: 'date' },
      regionId: { type: 'integer', reference: { list: 'region' } },
      districtId: { type: 'integer', reference: { list: 'district', parentField: 'regionId' } },
      active: { type: 'boolean' },
      kind: { type: 'string', oneOf: [{ const: 'A', title: 'test.kind.A' }, { const: 'B', title: 'test.kind.B' }] },
    },
  };
  const grid = {
    columns: [
      { field: '/id', titleKey: 'test.col.id', sortable: true },
      { field: '/name', titleKey: 'test.col.name', sortable: true },
      { field: '/price', titleKey: 'test.col.price', format: 'money', sortable: true },
      { field: '/madeOn', titleKey: 'test.col.madeOn', format: 'date' },
      { field: '/regionId', titleKey: 'test.col.region', format: 'reference', reference: 'region' },
      { field: '/active', titleKey: 'test.col.active', format: 'boolean' },
      { field: '/kind', titleKey: 'test.col.kind', format: 'enum' },
      { field: '/status', titleKey: 'test.col.status', format: 'status', sortable: true },
      { field: '/createdAt', titleKey: 'test.col.createdAt', format: 'datetime', sortable: true },
    ],
    defaultSort: [{ field: '/createdAt', desc: true }],
    filters: [
      { name: 'keyword', kind: 'keyword', titleKey: 'test.filter.keyword' },
      { name: 'statusId', kind: 'eq', field: '/status', titleKey: 'test.filter.status' },
      { name: 'regionId', kind: 'eq', field: '/regionId', reference: 'region', titleKey: 'test.filter.region' },
      { name: 'districtId', kind: 'eq', field: '/districtId', reference: 'district', parentFilter: 'regionId', titleKey: 'test.filter.district' },
      { name: 'createdDate', kind: 'dateRange', field: '/createdAt', titleKey: 'test.filter.created' },
      { name: 'price', kind: 'range', field: '/price', titleKey: 'test.filter.price' },
      { name: 'active', kind: 'bool', field: '/active', titleKey: 'test.filter.active' },
      { name: 'kinds', kind: 'in', field: '/kind', titleKey: 'test.filter.kinds' },
    ],
  };
  const manifest = { id: 'gadget', description: '', base: '/gadget', titleKey: 'test.title', subject: 'Gadget', schema: 'schema.json', grid: 'grid.json', workflow: 'gadget-flow' };
  const machine = { id: 'gadget-flow', version: 1, description: '', initial: 'DRAFT', states: { DRAFT: { description: '' }, DONE: { description: '', type: 'final' } } };
  const screens = [
    { id: 'gadget-list', route: '/gadgets', kind: 'list', entity: 'gadget', titleKey: 'test.screen.list', permission: 'public' },
    { id: 'gadget-detail', route: '/gadgets/:id', kind: 'detail', entity: 'gadget', titleKey: 'test.screen.detail', permission: 'public' },
    { id: 'gadget-new', route: '/gadgets/new', kind: 'form', entity: 'gadget', titleKey: 'test.screen.new', permission: 'public' },
  ];
  return { def: { id: 'gadget', manifest, schema, grid, ui: undefined, dir: 'schemas/gadget' }, machine, screens };
});

vi.mock('../../definitions/client.ts', () => ({
  manifests: new Map([['gadget', fx.def.manifest]]),
  screens: fx.screens,
  loadEntity: async () => fx.def,
  loadMachine: async (id?: string) => (id === fx.machine.id ? fx.machine : undefined),
  loadUi: async () => undefined,
}));

const texts = {
  ...en,
  status: { ...en.status, DRAFT: 'Draft' },
  test: {
    title: 'Gadgets', screen: { list: 'All gadgets' },
    col: { id: 'No.', name: 'Name', price: 'Price', madeOn: 'Made on', region: 'Region', active: 'Active', kind: 'Kind', status: 'Status', createdAt: 'Created' },
    filter: { keyword: 'Search', status: 'Status', region: 'Region', district: 'District', created: 'Created', price: 'Price', active: 'Active only', kinds: 'Kinds' },
    kind: { A: 'Kind A' },
  },
};

const regions = [
  { id: 1, code: '01', parent: null, nameLt: 'Toshkent', nameUz: 'Тошкент', nameRu: 'Ташкент', nameEn: 'Tashkent' },
  { id: 2, code: '02', parent: null, nameLt: 'Samarqand', nameUz: 'Самарқанд', nameRu: 'Самарканд', nameEn: 'Samarkand' },
];
const districts = [
  { id: 11, code: '0101', parent: 1, nameLt: 'Chilonzor', nameUz: 'Чилонзор', nameRu: 'Чиланзар', nameEn: 'Chilanzar' },
  { id: 21, code: '0201', parent: 2, nameLt: 'Urgut', nameUz: 'Ургут', nameRu: 'Ургут', nameEn: 'Urgut' },
];

const record = (id: number, extra: Partial<StoredRecord> = {}): StoredRecord => ({
  id, version: 1, status: 'DRAFT', createdAt: '2024-03-05T19:30:00.000Z', updatedAt: '2024-03-05T19:30:00.000Z',
  name: `Gadget ${id}`, price: 1234567.6, madeOn: '2024-03-05', regionId: 1, active: true, kind: 'A', ...extra,
});

let getList: ReturnType<typeof vi.fn<DataProvider['getList']>>;
let exportUrl: ReturnType<typeof vi.fn<DataProvider['exportUrl']>>;
let location = '';

function Probe() {
  const l = useLocation();
  location = `${l.pathname}${l.search}`;
  return null;
}

function renderList(url = '/gadgets') {
  const dataProvider = {
    getList,
    exportUrl,
    getReference: vi.fn(async (kind: string, parent?: number) => (kind === 'region' ? regions : districts.filter((d) => parent === undefined || d.parent === parent))),
  } as unknown as DataProvider;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const i18n = i18next.createInstance();
  void i18n.init({ lng: 'en', resources: { en: { translation: texts } }, interpolation: { escapeValue: false }, initImmediate: false } as never);
  return render(
    <FluentProvider theme={webLightTheme}>
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <ApiProvider value={{ dataProvider, reportError: vi.fn(), notifySuccess: vi.fn() }}>
          <MemoryRouter initialEntries={[url]}>
            <Probe />
            <Routes>
              <Route path="/gadgets" element={<ListScreen screen={fx.screens[0] as never} />} />
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

const lastParams = (): ListParams => getList.mock.lastCall![1];
const action = (name: string) => document.querySelector<HTMLElement>(`[data-action="${name}"]`)!;
const filter = (name: string) => document.querySelector<HTMLElement>(`[data-filter="${name}"]`)!;
const rows = () => [...document.querySelectorAll('[role="row"][row-id]')];

beforeEach(() => {
  localStorage.clear();
  location = '';
  getList = vi.fn(async (_entity: string, p: ListParams) => ({
    list: Array.from({ length: Math.max(0, Math.min(p.itemsPerPage, 45 - p.page * p.itemsPerPage)) }, (_, i) => record(p.page * p.itemsPerPage + i + 1)),
    total: 45,
  }));
  exportUrl = vi.fn((entity: string, p: Omit<ListParams, 'page' | 'itemsPerPage'>) => `/api/${entity}/export?${new URLSearchParams({ ...p.filters as Record<string, string>, sortBy: p.sortBy.join(',') })}`);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ListScreen', () => {
  it('renders the rows of the first page with cells formatted by type', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    const root = document.querySelector('[data-screen="gadget-list"]')!;
    expect(root.getAttribute('data-entity')).toBe('gadget');
    expect(getList).toHaveBeenCalledWith('gadget', { filters: {}, page: 0, itemsPerPage: 20, sortBy: ['createdAt'], sortDesc: [true] });
    expect(screen.getByRole('heading', { name: 'All gadgets' })).toBeTruthy();
    expect([...document.querySelectorAll('[role="columnheader"] [data-ref="eText"]')].map((h) => h.textContent)).toEqual(['No.', 'Name', 'Price', 'Made on', 'Region', 'Active', 'Kind', 'Status', 'Created']);
    const first = within(rows()[0] as HTMLElement);
    for (const text of ['Gadget 1', '1 234 568', '05.03.2024', 'Tashkent', 'Yes', 'Kind A', 'Draft', '06.03.2024 00:30']) expect(first.getByText(text)).toBeTruthy();
    expect(screen.getByText('1–20 of 45')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
  });

  it('pages: next, last and first send 0-based pages and keep the 1-based page in the URL', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    fireEvent.click(action('next-page'));
    await waitFor(() => expect(lastParams().page).toBe(1));
    expect(location).toBe('/gadgets?page=2');
    await waitFor(() => expect(screen.getByText('Page 2 of 3')).toBeTruthy());
    fireEvent.click(action('last-page'));
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(lastParams().page).toBe(2);
    expect((action('next-page') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(action('first-page'));
    await waitFor(() => expect(lastParams().page).toBe(0));
    expect(location).toBe('/gadgets');
  });

  it('remembers the page size per screen and starts again from page 1', async () => {
    renderList('/gadgets?page=2');
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(lastParams().page).toBe(1);
    fireEvent.change(action('page-size'), { target: { value: '50' } });
    await waitFor(() => expect(lastParams()).toMatchObject({ itemsPerPage: 50, page: 0 }));
    expect(JSON.parse(localStorage.getItem('portal.itemsPerPage')!)).toEqual({ 'gadget-list': 50 });
    cleanup();
    renderList();
    await waitFor(() => expect(lastParams().itemsPerPage).toBe(50));
  });

  it('sorts on the server: header click, shift-click for more keys, names sent dotted', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    const header = (colId: string) => document.querySelector<HTMLElement>(`[role="columnheader"][col-id="${colId}"] [data-ref="eLabel"]`)!;
    fireEvent.click(header('/name'));
    await waitFor(() => expect(lastParams()).toMatchObject({ sortBy: ['name'], sortDesc: [false], page: 0 }));
    expect(location).toBe('/gadgets?sort=name');
    fireEvent.click(header('/price'), { shiftKey: true });
    await waitFor(() => expect(lastParams()).toMatchObject({ sortBy: ['name', 'price'], sortDesc: [false, false] }));
    fireEvent.click(header('/price'), { shiftKey: true });
    await waitFor(() => expect(lastParams()).toMatchObject({ sortBy: ['name', 'price'], sortDesc: [false, true] }));
    expect(location).toBe('/gadgets?sort=name%2C-price');
  });

  it('reads sort and filters from the URL and sends them', async () => {
    renderList('/gadgets?sort=-price,name&regionId=1&createdDateFrom=2024-01-01&active=true&unknown=x');
    await waitFor(() => expect(getList).toHaveBeenCalled());
    expect(lastParams()).toEqual({
      filters: { regionId: '1', createdDateFrom: '2024-01-01', active: 'true' }, page: 0, itemsPerPage: 20, sortBy: ['price', 'name'], sortDesc: [true, false],
    });
  });

  it('applies filters: keyword after a pause, status from the machine, region → district cascade, ranges', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    const statusSelect = filter('statusId').querySelector('select')!;
    expect([...statusSelect.options].map((o) => o.value)).toEqual(['', 'DRAFT', 'DONE']);
    fireEvent.change(statusSelect, { target: { value: 'DONE' } });
    await waitFor(() => expect(lastParams().filters).toEqual({ statusId: 'DONE' }));

    const keyword = filter('keyword').querySelector('input')!;
    fireEvent.change(keyword, { target: { value: 'lamp' } });
    expect(lastParams().filters).toEqual({ statusId: 'DONE' });
    await waitFor(() => expect(lastParams().filters).toEqual({ statusId: 'DONE', keyword: 'lamp' }), { timeout: FILTER_DEBOUNCE_MS + 1500 });

    const district = () => filter('districtId').querySelector('select')!;
    expect(district().disabled).toBe(true);
    fireEvent.change(filter('regionId').querySelector('select')!, { target: { value: '1' } });
    await waitFor(() => expect([...district().options].map((o) => o.textContent)).toEqual(['All', 'Chilanzar']));
    fireEvent.change(district(), { target: { value: '11' } });
    await waitFor(() => expect(lastParams().filters).toMatchObject({ regionId: '1', districtId: '11' }));
    fireEvent.change(filter('regionId').querySelector('select')!, { target: { value: '2' } });
    await waitFor(() => expect(lastParams().filters).toEqual({ statusId: 'DONE', keyword: 'lamp', regionId: '2' }));

    const [from] = filter('createdDate').querySelectorAll('input');
    fireEvent.change(from!, { target: { value: '2024-02-01' } });
    await waitFor(() => expect(lastParams().filters).toMatchObject({ createdDateFrom: '2024-02-01' }));
    fireEvent.click(filter('active').querySelector('input')!);
    await waitFor(() => expect(lastParams().filters).toMatchObject({ active: 'true' }));
    expect(new URLSearchParams(location.split('?')[1]).get('statusId')).toBe('DONE');

    fireEvent.click(action('clear-filters'));
    await waitFor(() => expect(lastParams().filters).toEqual({}));
    expect(location).toBe('/gadgets');
  });

  it('turns the default sort column ascending on the first click (no unsorted step)', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    fireEvent.click(document.querySelector<HTMLElement>('[role="columnheader"][col-id="/createdAt"] [data-ref="eLabel"]')!);
    await waitFor(() => expect(lastParams()).toMatchObject({ sortBy: ['createdAt'], sortDesc: [false] }));
  });

  it('offers enum choices for an "in" filter and sends them comma-separated', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    fireEvent.click(within(filter('kinds')).getByRole('combobox'));
    // A multi-select dropdown lists its choices as menu item checkboxes.
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Kind A' }));
    await waitFor(() => expect(lastParams().filters).toEqual({ kinds: 'A' }));
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'B' }));
    await waitFor(() => expect(lastParams().filters).toEqual({ kinds: 'A,B' }));
  });

  it('moves the filters into a panel on a small screen', async () => {
    const matchMedia = vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
      matches: query.includes('max-width'), media: query, onchange: null,
      addEventListener: () => undefined, removeEventListener: () => undefined, addListener: () => undefined, removeListener: () => undefined, dispatchEvent: () => false,
    }) as MediaQueryList);
    // Without element.animate Fluent's drawer motion takes its test path; happy-dom's own
    // animations reject `finished` on unmount, which nobody awaits.
    const animate = Object.getOwnPropertyDescriptor(Element.prototype, 'animate');
    Object.defineProperty(Element.prototype, 'animate', { value: undefined, configurable: true, writable: true });
    try {
      renderList();
      await waitFor(() => expect(rows()).toHaveLength(20));
      expect(filter('keyword')).toBeNull();
      fireEvent.click(action('filters'));
      await waitFor(() => expect(filter('keyword')).not.toBeNull());
      fireEvent.change(filter('statusId').querySelector('select')!, { target: { value: 'DRAFT' } });
      await waitFor(() => expect(lastParams().filters).toEqual({ statusId: 'DRAFT' }));
      cleanup();
    } finally {
      matchMedia.mockRestore();
      if (animate) Object.defineProperty(Element.prototype, 'animate', animate);
    }
  });

  it('shows an empty state', async () => {
    getList.mockResolvedValue({ list: [], total: 0 });
    renderList();
    expect(await screen.findByText('No records')).toBeTruthy();
    expect(document.querySelector('[data-state="empty"]')).toBeTruthy();
    expect(rows()).toHaveLength(0);
  });

  it('shows the server’s message on failure and recovers with retry', async () => {
    getList.mockRejectedValueOnce(new HttpError(500, { message: 'Database is down' }, 'Database is down'));
    renderList();
    expect(await screen.findByText('Database is down')).toBeTruthy();
    expect(document.querySelector('[data-state="error"]')).toBeTruthy();
    fireEvent.click(action('retry'));
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(document.querySelector('[data-state="error"]')).toBeNull();
  });

  it('opens the detail screen on row click and the form on create', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    fireEvent.click(within(rows()[2] as HTMLElement).getByText('Gadget 3'));
    await waitFor(() => expect(location).toBe('/gadgets/3'));
    expect(screen.getByText('gadget detail')).toBeTruthy();
  });

  it('offers create and an export link of the current filter and sort', async () => {
    renderList('/gadgets?keyword=lamp&sort=name');
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(exportUrl).toHaveBeenLastCalledWith('gadget', { filters: { keyword: 'lamp', lang: 'en' }, sortBy: ['name'], sortDesc: [false] });
    expect(action('export').getAttribute('href')).toBe('/api/gadget/export?keyword=lamp&lang=en&sortBy=name');
    expect(action('refresh')).toBeTruthy();
    fireEvent.click(action('create'));
    await waitFor(() => expect(location).toBe('/gadgets/new'));
  });
});

describe('sortFromColumnState', () => {
  it('orders sorted columns by sort index and drops unsorted ones', () => {
    expect(sortFromColumnState([
      { colId: '/a', sort: 'desc', sortIndex: 1 },
      { colId: '/b', sort: null },
      { colId: '/c', sort: 'asc', sortIndex: 0 },
    ])).toEqual([{ field: '/c', desc: false }, { field: '/a', desc: true }]);
  });
});

describe('withoutHiddenColumns', () => {
  it('drops the columns, filters and default sort of fields the user may not read', () => {
    const def = fx.def as never as Parameters<typeof withoutHiddenColumns>[0];
    const narrowed = withoutHiddenColumns(def, ['/price', '/createdAt']);
    expect(narrowed.grid.columns.map((c) => c.field)).toEqual(['/id', '/name', '/madeOn', '/regionId', '/active', '/kind', '/status']);
    expect(narrowed.grid.filters.map((f) => f.name)).toEqual(['keyword', 'statusId', 'regionId', 'districtId', 'active', 'kinds']);
    expect(narrowed.grid.defaultSort).toEqual([]);
    expect(withoutHiddenColumns(def, [])).toBe(def);
  });
});
