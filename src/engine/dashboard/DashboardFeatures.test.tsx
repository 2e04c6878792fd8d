// @vitest-environment happy-dom
/**
 * The dashboard engine over the made-up entity "gadget": filters and the open tab in the URL,
 * the period picker, number tiles with the previous period, drill-down links, group rows with
 * subtotals, column groups, the total row, the row limit and the download links.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { $, $$, location, server, show, text } from './dashboard-testing.tsx';

vi.mock('../../definitions/client.ts', async () => (await import('./dashboard-testing-entity.ts')).clientMock);

const periodFilter = {
  name: 'period',
  titleKey: 'test.filter.created',
  period: { units: ['month', 'quarter', 'year', 'custom'], default: 'quarter' },
};
const regionFilter = { name: 'regionId', titleKey: 'test.filter.region', reference: 'region' };
const byRegion = {
  id: 'by-region',
  titleKey: 'test.title',
  kind: 'table',
  source: { endpoint: '/api/gadget/aggregate/by-region', filters: ['regionId'], period: 'createdDate' },
  columns: [
    { field: 'regionId', titleKey: 'test.col.region', reference: 'region' },
    { field: 'kind', titleKey: 'test.col.kind' },
    { field: 'total', titleKey: 'test.col.id', format: 'integer' },
    { field: 'done', titleKey: 'test.col.price', format: 'integer' },
  ],
  drill: { screen: 'gadget-list' },
};

describe('dashboard filters in the URL and the period picker', () => {
  it('reads the filters from the link, asks with the period as the date range and writes changes back', async () => {
    const { calls, dataProvider } = server(() => [{ regionId: 2, kind: 'A', total: 5, done: 2 }]);
    const { user } = show(
      { filters: [periodFilter, regionFilter], panels: [byRegion] },
      '/dash?period=2025-Q3&regionId=2',
      dataProvider,
    );
    await waitFor(() => expect(text('[data-cell="total"]')).toEqual(['5']));
    expect(calls[0]).toEqual({
      method: 'GET',
      path: '/api/gadget/aggregate/by-region',
      query: { regionId: '2', createdDateFrom: '2025-07-01', createdDateTo: '2025-09-30' },
    });
    expect($('[data-period-words]')!.textContent).toBe('3rd quarter 2025');
    expect($<HTMLSelectElement>('[data-period-part="unit"]')!.value).toBe('quarter');

    await user.selectOptions($<HTMLSelectElement>('[data-period-part="quarter"]')!, '4');
    await waitFor(() => expect(location().get('period')).toBe('2025-Q4'));
    expect(location().get('regionId')).toBe('2');
    await waitFor(() =>
      expect(calls.at(-1)!.query).toEqual({
        regionId: '2',
        createdDateFrom: '2025-10-01',
        createdDateTo: '2025-12-31',
      }),
    );
    expect($('[data-period-words]')!.textContent).toBe('4th quarter 2025');

    await user.selectOptions($<HTMLSelectElement>('[data-period-part="unit"]')!, 'month');
    await waitFor(() => expect(location().get('period')).toBe('2025-10'));
    expect($('[data-period-words]')!.textContent).toBe('October 2025');

    await user.selectOptions($<HTMLSelectElement>('[data-period-part="unit"]')!, 'year');
    await waitFor(() => expect($('[data-period-words]')!.textContent).toBe('2025'));
    expect(location().get('period')).toBe('2025');

    await user.selectOptions($<HTMLSelectElement>('[data-filter="regionId"]')!, '');
    await waitFor(() => expect(location().has('regionId')).toBe(false));
    await waitFor(() =>
      expect(calls.at(-1)!.query).toEqual({ createdDateFrom: '2025-01-01', createdDateTo: '2025-12-31' }),
    );
  }, 20_000);

  it('a custom range of two days is sent once both are typed; a reversed range says so and is not sent', async () => {
    const { calls, dataProvider } = server(() => [{ regionId: 1, kind: 'A', total: 1, done: 0 }]);
    const { user } = show(
      { filters: [periodFilter], panels: [byRegion] },
      '/dash?period=2025-07-01..2025-07-31',
      dataProvider,
    );
    await waitFor(() => expect(calls).toHaveLength(1));
    expect($('[data-period-words]')!.textContent).toBe('01.07.2025 – 31.07.2025');
    const [from, to] = $$('[data-filter="period"] input');
    await user.clear(to!);
    await user.type(to!, '30.06.2025');
    await waitFor(() => expect($('[data-error="reversed"]')).not.toBeNull());
    expect(to!.getAttribute('aria-invalid')).toBe('true');
    expect(location().get('period')).toBe('2025-07-01..2025-07-31');
    await user.clear(from!);
    await user.type(from!, '01.06.2025');
    await waitFor(() => expect(location().get('period')).toBe('2025-06-01..2025-06-30'));
    expect($('[data-error="reversed"]')).toBeNull();
    await waitFor(() =>
      expect(calls.at(-1)!.query).toEqual({ createdDateFrom: '2025-06-01', createdDateTo: '2025-06-30' }),
    );
  }, 20_000);

  it('an invalid or undeclared period in the link falls back to the current one', async () => {
    const { calls, dataProvider } = server(() => []);
    show(
      { filters: [{ ...periodFilter, period: { units: ['year'] } }], panels: [byRegion] },
      '/dash?period=2025-Q3',
      dataProvider,
    );
    await waitFor(() => expect(calls).toHaveLength(1));
    const year = calls[0]!.query.createdDateFrom!.slice(0, 4);
    expect(calls[0]!.query).toEqual({ createdDateFrom: `${year}-01-01`, createdDateTo: `${year}-12-31` });
    expect($('[data-period-part="unit"]')).toBeNull();
  });
});

describe('dashboard drill-down and download', () => {
  it('every number links to the list with the period, the row group and the measure filter; drill:false and unknown names stay out', async () => {
    const { dataProvider } = server(() => [
      { regionId: 2, kind: 'A', total: 5, done: 2 },
      { regionId: 1, kind: 'B', total: 3, done: 1 },
    ]);
    const panel = { ...byRegion, total: true, source: { ...byRegion.source, query: { bucket: 'month' } } };
    panel.columns = [...byRegion.columns.slice(0, 3), { ...byRegion.columns[3]!, drill: false } as never];
    show({ filters: [periodFilter, regionFilter], panels: [panel] }, '/dash?period=2025-Q3&regionId=2', dataProvider);
    await waitFor(() => expect($$('[data-cell="total"] a')).toHaveLength(3));
    const hrefs = $$('[data-cell="total"] a').map((a) => a.getAttribute('href'));
    const base = 'regionId=2&createdDateFrom=2025-07-01&createdDateTo=2025-09-30';
    // kind is no list filter of the grid (it has `kinds`): it stays out rather than break the list.
    expect(hrefs[0]).toBe(`/gadgets?${base}`);
    expect(hrefs[1]).toBe(`/gadgets?${base.replace('regionId=2', 'regionId=1')}`);
    expect(hrefs[2]).toBe(`/gadgets?${base}`);
    expect($$('[data-cell="done"] a')).toHaveLength(0);
    const href = $<HTMLAnchorElement>('[data-action="export"]')!.getAttribute('href');
    expect(href).toBe('/api/dashboards/gadget-dash/by-region/export?period=2025-Q3&regionId=2&lang=en');
    expect($('[data-action="export"]')!.hasAttribute('download')).toBe(true);
  });

  it('the measure filter goes with the number; a panel with export:false has no download', async () => {
    const { dataProvider } = server(() => [{ regionId: 1, kind: 'A', total: 5, done: 2 }]);
    show({ filters: [periodFilter], panels: [{ ...byRegion, export: false }] }, '/dash?period=2025-07', dataProvider);
    await waitFor(() => expect($$('[data-cell="done"] a')).toHaveLength(1));
    expect($('[data-cell="done"] a')!.getAttribute('href')).toBe(
      '/gadgets?createdDateFrom=2025-07-01&createdDateTo=2025-07-31&regionId=1&statusId=DONE',
    );
    expect($('[data-action="export"]')).toBeNull();
  });

  it('a chart: every number of its table view links to the list of its bucket; the table view downloads', async () => {
    const { dataProvider } = server(() => [
      { bucket: '2025-07', total: 4 },
      { bucket: '2025-08', total: 6 },
    ]);
    const chart = {
      id: 'trend',
      titleKey: 'test.title',
      kind: 'bar',
      source: { endpoint: '/api/gadget/aggregate/trend', period: 'createdDate' },
      x: { field: 'bucket', titleKey: 'test.col.createdAt' },
      y: [{ field: 'total', titleKey: 'test.col.id', format: 'integer' }],
      drill: { screen: 'gadget-list' },
    };
    show({ filters: [periodFilter], panels: [chart] }, '/dash?period=2025-Q3', dataProvider);
    await waitFor(() => expect($$('[data-panel="trend"] details [data-cell="total"] a')).toHaveLength(2));
    expect($$('[data-panel="trend"] details [data-cell="total"] a').map((a) => a.getAttribute('href'))).toEqual([
      '/gadgets?createdDateFrom=2025-07-01&createdDateTo=2025-07-31',
      '/gadgets?createdDateFrom=2025-08-01&createdDateTo=2025-08-31',
    ]);
    expect($('[data-panel="trend"] details [data-action="export"]')!.getAttribute('href')).toBe(
      '/api/dashboards/gadget-dash/trend/export?period=2025-Q3&lang=en',
    );
  });
});

describe('live panels (refreshSeconds)', () => {
  it('asks again while the page stays open; other panels keep their minute-long cache', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { calls, dataProvider } = server(() => [{ regionId: 2, kind: 'A', total: 5, done: 2 }]);
      const live = {
        ...byRegion,
        id: 'live',
        source: { ...byRegion.source, endpoint: '/api/gadget/aggregate/live' },
        refreshSeconds: 5,
      };
      show({ panels: [byRegion, live] }, '/dash', dataProvider);
      await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/live'))).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(5_100);
      await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/live'))).toHaveLength(2));
      await vi.advanceTimersByTimeAsync(5_100);
      await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/live'))).toHaveLength(3));
      expect(calls.filter((c) => c.path.endsWith('/by-region'))).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('values named by their texts (format label with valueLabels)', () => {
  it('names each value of a list in the reader’s language, not by its code', async () => {
    const { dataProvider } = server(() => [{ username: 'u1', roles: ['total', 'subtotal'] }]);
    show(
      {
        panels: [
          {
            id: 'users',
            titleKey: 'test.title',
            kind: 'table',
            source: { endpoint: '/api/gadget/list' },
            columns: [
              { field: 'username', titleKey: 'test.col.kind' },
              { field: 'roles', titleKey: 'test.col.id', format: 'label', valueLabels: 'engine.dashboard' },
            ],
          },
        ],
      },
      '/dash',
      dataProvider,
    );
    await waitFor(() => expect(text('[data-cell="roles"]')).toEqual(['Total, Subtotal']));
  });
});
