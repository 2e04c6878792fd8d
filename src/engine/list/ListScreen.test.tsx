// @vitest-environment happy-dom
/**
 * The list screen against a test double of the DataProvider, over a made-up entity (the
 * engine must not know real ones): rows and formatted cells, the list-search parameters it
 * sends for paging and sorting, the remembered page size, navigation, export and the empty,
 * error and retry states; and the pure helpers of its columns. Filters: ListFilters.test.tsx.
 */
import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from '../../client/http.ts';
import { withoutHiddenColumns } from './list-definition.ts';
import { sortFromColumnState } from './ListGrid.tsx';
import { def as testEntity } from './test-entity.ts';
import { action, exportUrl, filter, getList, lastParams, location, renderList, rows } from './list-testing.tsx';

vi.mock('../../definitions/client.ts', async () => (await import('./test-entity.ts')).definitionsClientMock);

describe('ListScreen', () => {
  it('renders the rows of the first page with cells formatted by type', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    const root = document.querySelector('[data-screen="gadget-list"]')!;
    expect(root.getAttribute('data-entity')).toBe('gadget');
    expect(getList).toHaveBeenCalledWith('gadget', {
      filters: {},
      page: 0,
      itemsPerPage: 20,
      sortBy: ['createdAt'],
      sortDesc: [true],
    });
    expect(screen.getByRole('heading', { name: 'All gadgets' })).toBeTruthy();
    expect(
      [...document.querySelectorAll('[role="columnheader"] [data-ref="eText"]')].map((h) => h.textContent),
    ).toEqual(['No.', 'Name', 'Price', 'Made on', 'Region', 'Active', 'Kind', 'Status', 'Created']);
    const first = within(rows()[0] as HTMLElement);
    for (const text of [
      'Gadget 1',
      '1 234 568',
      '05.03.2024',
      'Tashkent',
      'Yes',
      'Kind A',
      'Draft',
      '06.03.2024 00:30',
    ])
      expect(first.getByText(text)).toBeTruthy();
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
    const header = (colId: string) =>
      document.querySelector<HTMLElement>(`[role="columnheader"][col-id="${colId}"] [data-ref="eLabel"]`)!;
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
      filters: { regionId: '1', createdDateFrom: '2024-01-01', active: 'true' },
      page: 0,
      itemsPerPage: 20,
      sortBy: ['price', 'name'],
      sortDesc: [true, false],
    });
  });

  it('turns the default sort column ascending on the first click (no unsorted step)', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    fireEvent.click(
      document.querySelector<HTMLElement>('[role="columnheader"][col-id="/createdAt"] [data-ref="eLabel"]')!,
    );
    await waitFor(() => expect(lastParams()).toMatchObject({ sortBy: ['createdAt'], sortDesc: [false] }));
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
    expect(exportUrl).toHaveBeenLastCalledWith('gadget', {
      filters: { keyword: 'lamp', lang: 'en' },
      sortBy: ['name'],
      sortDesc: [false],
    });
    expect(action('export').getAttribute('href')).toBe('/api/gadget/export?keyword=lamp&lang=en&sortBy=name');
    expect(action('refresh')).toBeTruthy();
    fireEvent.click(action('create'));
    await waitFor(() => expect(location).toBe('/gadgets/new'));
  });
});

describe('sortFromColumnState', () => {
  it('orders sorted columns by sort index and drops unsorted ones', () => {
    expect(
      sortFromColumnState([
        { colId: '/a', sort: 'desc', sortIndex: 1 },
        { colId: '/b', sort: null },
        { colId: '/c', sort: 'asc', sortIndex: 0 },
      ]),
    ).toEqual([
      { field: '/c', desc: false },
      { field: '/a', desc: true },
    ]);
  });
});

describe('withoutHiddenColumns', () => {
  it('drops the columns, filters and default sort of fields the user may not read', () => {
    const def = testEntity as never as Parameters<typeof withoutHiddenColumns>[0];
    const narrowed = withoutHiddenColumns(def, ['/price', '/createdAt']);
    expect(narrowed.grid.columns.map((c) => c.field)).toEqual([
      '/id',
      '/name',
      '/madeOn',
      '/regionId',
      '/active',
      '/kind',
      '/status',
    ]);
    expect(narrowed.grid.filters.map((f) => f.name)).toEqual([
      'keyword',
      'statusId',
      'regionId',
      'districtId',
      'active',
      'kinds',
    ]);
    expect(narrowed.grid.defaultSort).toEqual([]);
    expect(withoutHiddenColumns(def, [])).toBe(def);
  });
});
