// @vitest-environment happy-dom
/**
 * The dashboard engine's layouts over the made-up entity "gadget": tabs in the URL (only the open
 * tab asks the server), number tiles with the previous period, a table compared with the previous
 * period, group rows with subtotals (summed or from the totals source), column groups, the row
 * limit, and panels hidden from a user without the permission.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { createAbility } from '../../shared/ability.ts';
import { $, $$, location, server, show, text } from './dashboard-testing.tsx';

vi.mock('../../definitions/client.ts', async () => (await import('./dashboard-testing-entity.ts')).clientMock);

const month = { name: 'period', titleKey: 'test.filter.created', period: { units: ['month'] } };
const tiles = {
  id: 'tiles',
  titleKey: 'test.title',
  kind: 'stat',
  compare: 'previousPeriod',
  source: { endpoint: '/api/gadget/aggregate/summary', period: 'createdDate' },
  columns: [{ field: 'total', titleKey: 'test.col.id', format: 'integer' }],
  drill: { screen: 'gadget-list' },
};
const table = {
  id: 'table',
  titleKey: 'test.title',
  kind: 'table',
  source: { endpoint: '/api/gadget/aggregate/by-region', period: 'createdDate' },
  columns: [
    { field: 'regionId', titleKey: 'test.col.region', reference: 'region' },
    { field: 'kind', titleKey: 'test.col.kind' },
    { field: 'total', titleKey: 'test.col.id', format: 'integer' },
    { field: 'done', titleKey: 'test.col.price', format: 'integer' },
  ],
  drill: { screen: 'gadget-list' },
};
const rows = [
  { regionId: 1, kind: 'A', total: 10, done: 4 },
  { regionId: 1, kind: 'B', total: 6, done: 1 },
  { regionId: 2, kind: 'A', total: 3, done: 3 },
];

describe('dashboard tabs', () => {
  it('only the open tab asks the server; a tab is in the URL', async () => {
    const { calls, dataProvider } = server((path) => (path.endsWith('summary') ? [{ total: 7 }] : rows));
    const tabs = [
      { id: 'one', titleKey: 'test.screen.list', panels: ['tiles'] },
      { id: 'two', titleKey: 'test.screen.detail', panels: ['table'] },
    ];
    const { user } = show(
      { filters: [month], tabs, panels: [{ ...tiles, compare: undefined }, table] },
      '/dash?period=2025-07',
      dataProvider,
    );
    await waitFor(() => expect(text('[data-tile="total"] [data-cell]')).toEqual(['7']));
    expect(calls.map((c) => c.path)).toEqual(['/api/gadget/aggregate/summary']);
    expect($('[data-panel="table"]')).toBeNull();
    await user.click($('[data-tab="two"]')!);
    await waitFor(() => expect(location().get('tab')).toBe('two'));
    await waitFor(() => expect($$('[data-panel="table"] [data-line="row"]')).toHaveLength(3));
    expect($('[data-panel="tiles"]')).toBeNull();
    expect(calls.map((c) => c.path)).toEqual(['/api/gadget/aggregate/summary', '/api/gadget/aggregate/by-region']);
    expect(location().get('period')).toBe('2025-07');
  });
});

describe('dashboard tiles and comparison', () => {
  it('a tile shows its number as a link, the previous period and the change', async () => {
    const { calls, dataProvider } = server((_, q) => [{ total: q.createdDateFrom === '2025-07-01' ? 15 : 10 }]);
    show({ filters: [month], panels: [tiles] }, '/dash?period=2025-07', dataProvider);
    await waitFor(() => expect(text('[data-tile="total"] [data-cell]')).toEqual(['15']));
    expect(calls.map((c) => c.query.createdDateFrom).sort()).toEqual(['2025-06-01', '2025-07-01']);
    expect($('[data-tile="total"] a')!.getAttribute('href')).toBe(
      '/gadgets?createdDateFrom=2025-07-01&createdDateTo=2025-07-31',
    );
    expect($('[data-tile="total"] [data-previous]')!.textContent).toBe('Previous period: 10');
    expect($('[data-tile="total"] [data-change]')!.getAttribute('data-change')).toBe('up');
    expect($('[data-tile="total"] [data-change]')!.textContent).toContain('▲ 50%');
  });

  it('a compared table shows beside every number the previous value and the change, matched by the row group', async () => {
    const { dataProvider } = server((_, q) =>
      q.createdDateFrom === '2025-07-01' ? rows : [{ regionId: 1, kind: 'A', total: 20, done: 4 }],
    );
    show({ filters: [month], panels: [{ ...table, compare: 'previousPeriod' }] }, '/dash?period=2025-07', dataProvider);
    await waitFor(() => expect($$('[data-line="row"]')).toHaveLength(3));
    const first = $('[data-row="0"] [data-cell="total"]')!;
    expect(first.querySelector('[data-previous]')!.textContent).toBe('Previous period: 20');
    expect(first.querySelector('[data-change]')!.getAttribute('data-change')).toBe('down');
    expect(first.querySelector('[data-change]')!.textContent).toContain('▼ 50%');
    expect($('[data-row="0"] [data-cell="done"] [data-change]')!.getAttribute('data-change')).toBe('same');
    // No row in the previous period: the previous value is none (0).
    expect($('[data-row="2"] [data-cell="total"] [data-previous]')!.textContent).toBe('Previous period: 0');
  });
});

describe('dashboard table layout', () => {
  it('groups rows under a heading per value with subtotals and a total that drill by the group', async () => {
    const { dataProvider } = server(() => rows);
    show(
      { filters: [month], panels: [{ ...table, groupRows: { field: 'regionId' } }] },
      '/dash?period=2025-07',
      dataProvider,
    );
    await waitFor(() => expect($$('[data-line]')).toHaveLength(8));
    expect($$('[data-line]').map((l) => l.getAttribute('data-line'))).toEqual([
      'heading',
      'row',
      'row',
      'subtotal',
      'heading',
      'row',
      'subtotal',
      'total',
    ]);
    expect(text('[data-line="heading"]')).toEqual(['North', 'South']);
    expect(text('[data-line="subtotal"] [data-cell="total"]')).toEqual(['16', '3']);
    expect(text('[data-line="total"] [data-cell="total"]')).toEqual(['19']);
    expect(text('[data-line="total"] [data-cell="regionId"]')).toEqual(['Total']);
    expect($('[data-line="subtotal"] [data-cell="done"] a')!.getAttribute('href')).toBe(
      '/gadgets?createdDateFrom=2025-07-01&createdDateTo=2025-07-31&regionId=1&statusId=DONE',
    );
    expect($('[data-line="total"] [data-cell="total"] a')!.getAttribute('href')).toBe(
      '/gadgets?createdDateFrom=2025-07-01&createdDateTo=2025-07-31',
    );
  });

  it('takes subtotals from the totals source, shows the first rows only with a notice, and a column group header', async () => {
    const { calls, dataProvider } = server((path) =>
      path.endsWith('summary')
        ? [
            { regionId: 1, total: 100, done: 40 },
            { regionId: 2, total: 30, done: 30 },
          ]
        : rows,
    );
    const panel = {
      ...table,
      limit: 2,
      groupRows: { field: 'regionId', totals: { endpoint: '/api/gadget/aggregate/summary', period: 'createdDate' } },
      columnGroups: [{ titleKey: 'test.title', columns: ['total', 'done'] }],
    };
    show({ filters: [month], panels: [panel] }, '/dash?period=2025-07', dataProvider);
    await waitFor(() => expect($$('[data-line="row"]')).toHaveLength(2));
    expect(calls.map((c) => c.path).sort()).toEqual([
      '/api/gadget/aggregate/by-region',
      '/api/gadget/aggregate/summary',
    ]);
    expect(text('[data-line="subtotal"] [data-cell="total"]')).toEqual(['100']);
    expect(text('[data-line="total"] [data-cell="total"]')).toEqual(['130']);
    expect($('[data-state="limited"]')!.textContent).toBe(
      'Showing the first 2 of 3 rows; the Excel file holds them all.',
    );
    const group = $('[data-header="groups"] th[scope="colgroup"]')!;
    expect(group.getAttribute('colspan')).toBe('2');
    expect(text('[data-header="groups"] th[scope="col"]')).toEqual(['test.col.region', 'test.col.kind']);
    expect(text('[data-header="columns"] th')).toEqual(['test.col.id', 'test.col.price']);
  });

  it('a panel with a permission the user lacks is not shown and not asked for', async () => {
    const { calls, dataProvider } = server(() => rows);
    const ability = createAbility([{ action: 'read', subject: 'Gadget' }]);
    show(
      {
        filters: [month],
        panels: [
          { ...table, permission: 'read Gadget' },
          { ...table, id: 'secret', permission: 'export Gadget' },
        ],
      },
      '/dash?period=2025-07',
      dataProvider,
      ability,
    );
    await waitFor(() => expect($$('[data-line="row"]')).toHaveLength(3));
    expect($('[data-panel="secret"]')).toBeNull();
    expect(calls).toHaveLength(1);
  });
});
