/**
 * The laid-out rows of a dashboard table (src/shared/dashboard-table.ts) that the XLSX export
 * writes: compare columns matched on the group columns, group headings with subtotals (summed,
 * or exact from a totals source), the grand total; and `narrowed`, which keeps a drill-down
 * query's parameter to what both of its two values allow.
 */
import { describe, expect, it } from 'vitest';
import type { DashboardPanel } from '../../src/generated/meta.ts';
import { buildPanelTable, relativeChange } from '../../src/shared/dashboard-table.ts';
import { narrowed } from '../../src/shared/dashboard-query.ts';

const panel = (extra: Partial<DashboardPanel> = {}): DashboardPanel => ({
  id: 'p',
  titleKey: 'p',
  kind: 'table',
  source: { endpoint: '/api/x/aggregate/y' },
  columns: [
    { field: 'regionId', titleKey: 'r', reference: 'region' },
    { field: 'typeId', titleKey: 't' },
    { field: 'count', titleKey: 'c', format: 'number' },
    { field: 'avg', titleKey: 'a', format: 'money', total: false },
  ],
  ...extra,
});
const rows = [
  { regionId: 1, typeId: 1, count: 2, avg: 10 },
  { regionId: 1, typeId: 2, count: 3, avg: 20 },
  { regionId: 2, typeId: 1, count: 5, avg: 30 },
];

describe('the laid-out dashboard table', () => {
  it('without groups: the rows, and a total row of the summed columns only when asked', () => {
    expect(buildPanelTable(panel(), { rows }).rows.map((r) => r.kind)).toEqual(['row', 'row', 'row']);
    const table = buildPanelTable(panel({ total: true }), { rows });
    expect(table.rows.at(-1)).toEqual({ kind: 'total', values: { count: 10 } });
    expect(table.columns.map((c) => c.key)).toEqual(['regionId', 'typeId', 'count', 'avg']);
  });

  it('groups rows under a heading with a subtotal each, then the grand total', () => {
    const table = buildPanelTable(panel({ groupRows: { field: 'regionId' } }), { rows });
    expect(table.rows.map((r) => (r.kind === 'row' ? `row ${r.values.count}` : r.kind))).toEqual([
      'group',
      'row 2',
      'row 3',
      'subtotal',
      'group',
      'row 5',
      'subtotal',
      'total',
    ]);
    expect(table.rows[3]).toEqual({ kind: 'subtotal', value: 1, values: { count: 5 } });
    expect(table.rows.at(-1)).toEqual({ kind: 'total', values: { count: 10 } });
  });

  it('takes exact subtotals and the total from the totals source, which counts groups the rows miss', () => {
    const totals = [
      { regionId: 1, count: 7 },
      { regionId: 2, count: 5 },
      { regionId: 3, count: 4 },
    ];
    const table = buildPanelTable(panel({ groupRows: { field: 'regionId', totals: panel().source } }), {
      rows,
      totals,
    });
    expect(table.rows.filter((r) => r.kind === 'subtotal').map((r) => r.values)).toEqual([{ count: 7 }, { count: 5 }]);
    expect(table.rows.at(-1)).toEqual({ kind: 'total', values: { count: 16 } });
  });

  it('puts the previous period beside each number, matched on the group columns, with the change', () => {
    const previous = [
      { regionId: 1, typeId: 1, count: 4, avg: 8 },
      { regionId: 3, typeId: 1, count: 1, avg: 9 },
    ];
    const table = buildPanelTable(panel({ compare: 'previousPeriod', total: true }), { rows, previous });
    expect(table.columns.map((c) => c.key)).toEqual([
      'regionId',
      'typeId',
      'count',
      'count@previous',
      'count@change',
      'avg',
      'avg@previous',
      'avg@change',
    ]);
    const values = table.rows.map((r) => (r.kind === 'total' ? r.values : r.kind === 'row' ? r.values : {}));
    expect(values[0]).toMatchObject({ count: 2, 'count@previous': 4, 'count@change': -0.5, 'avg@previous': 8 });
    expect(values[1]).toMatchObject({ count: 3, 'count@previous': null, 'count@change': null });
    // A group only in the previous period keeps its row, so both totals add up.
    expect(values[3]).toEqual({
      regionId: 3,
      typeId: 1,
      'count@previous': 1,
      'count@change': null,
      'avg@previous': 9,
      'avg@change': null,
    });
    expect(values[4]).toEqual({ count: 10, 'count@previous': 5, 'count@change': 1 });
  });

  it('widens a column group over the compare columns of its columns', () => {
    const table = buildPanelTable(
      panel({ compare: 'previousPeriod', columnGroups: [{ titleKey: 'g', columns: ['count', 'avg'] }] }),
      { rows },
    );
    expect(table.groups).toEqual([{ titleKey: 'g', first: 2, span: 6 }]);
  });

  it('computes the change only against a previous number that is not 0', () => {
    expect([relativeChange(125, 100), relativeChange(1, 0), relativeChange(null, 3), relativeChange(3, '')]).toEqual([
      0.25,
      null,
      null,
      null,
    ]);
  });
});

describe('narrowed: a drill-down parameter set twice keeps what both allow', () => {
  it('takes the later lower bound, the earlier upper bound and the common items', () => {
    expect(narrowed('createdDateTo', '2025-09-30', '2025-08-15')).toBe('2025-08-15');
    expect(narrowed('createdDateTo', '2025-07-31', '2025-08-15')).toBe('2025-07-31');
    expect(narrowed('createdDateFrom', '2025-07-01', '2025-06-01')).toBe('2025-07-01');
    expect(narrowed('amountFrom', '9', '10')).toBe('10');
    expect(narrowed('statuses', 'SEEN,EXPLAINED', 'EXPLAINED,REJECTED')).toBe('EXPLAINED');
    expect(narrowed('regionId', '3', '3')).toBe('3');
    // Nothing in common: the number is 0, and the later value stands.
    expect(narrowed('appealTypeIds', '1', '2')).toBe('2');
  });
});
