import { describe, expect, it } from 'vitest';
import type { DashboardFilter, DashboardPanel } from '../../src/generated/meta.ts';
import {
  aggregateOf,
  drillQuery,
  effectiveValues,
  panelCall,
  totalsColumn,
  widenPeriod,
} from '../../src/shared/dashboard-query.ts';
import { parsePeriod } from '../../src/shared/periods.ts';

/** How a dashboard's URL becomes panel calls and list links (src/shared/dashboard-query.ts). */
const NOW = new Date('2025-08-10T10:00:00Z');
const filters: DashboardFilter[] = [
  { name: 'period', titleKey: 't', period: { units: ['month', 'quarter', 'custom'], default: 'quarter' } },
  { name: 'regionId', titleKey: 't', reference: 'region' },
  { name: 'month', titleKey: 't', month: true },
  {
    name: 'bucket',
    titleKey: 't',
    choices: [
      { value: 'month', labelKey: 'm' },
      { value: 'day', labelKey: 'd' },
    ],
    required: true,
  },
  { name: 'marketTypeId', titleKey: 't', reference: 'market-type', default: 1, required: true },
];

describe('effectiveValues', () => {
  it('takes the URL where it names a valid value, else each filter default', () => {
    expect(effectiveValues(filters, {}, NOW)).toEqual({
      period: '2025-Q3',
      regionId: '',
      month: '2025-08',
      bucket: 'month',
      marketTypeId: '1',
    });
    expect(
      effectiveValues(
        filters,
        { period: '2025-07-01..2025-07-15', regionId: '3', month: '2024-01', bucket: 'day', marketTypeId: '2' },
        NOW,
      ),
    ).toEqual({ period: '2025-07-01..2025-07-15', regionId: '3', month: '2024-01', bucket: 'day', marketTypeId: '2' });
  });

  it('a period the filter does not declare, or no period at all, falls back to the default unit', () => {
    expect(effectiveValues(filters, { period: '2024' }, NOW).period).toBe('2025-Q3');
    expect(effectiveValues(filters, { period: '2025-Q9' }, NOW).period).toBe('2025-Q3');
    const monthFirst: DashboardFilter[] = [
      { name: 'p', titleKey: 't', period: { units: ['custom', 'year', 'month'] } },
    ];
    expect(effectiveValues(monthFirst, {}, NOW).p).toBe('2025');
  });

  it('a period of custom ranges only defaults to the current month as a range of days', () => {
    const custom: DashboardFilter[] = [{ name: 'p', titleKey: 't', period: { units: ['custom'] } }];
    expect(effectiveValues(custom, {}, NOW).p).toBe('2025-08-01..2025-08-31');
    expect(effectiveValues(custom, { p: '2025-08' }, NOW).p).toBe('2025-08-01..2025-08-31');
  });
});

const panel: DashboardPanel = {
  id: 'by-type',
  titleKey: 't',
  kind: 'table',
  source: {
    endpoint: '/api/thing/aggregate/by-type',
    filters: ['regionId', 'bucket'],
    period: 'createdDate',
    query: { limit: 10 },
  },
  drill: { screen: 'thing-list', by: { typeId: 'typeIds', regionId: 'regionIds' } },
};

describe('panelCall', () => {
  it('sends the fixed query, the listed filters that have a value and the period as the date range', () => {
    expect(panelCall(panel.source, filters, { period: '2025-Q3', regionId: '3', bucket: 'day' })).toEqual({
      endpoint: '/api/thing/aggregate/by-type',
      method: 'GET',
      query: { limit: '10', regionId: '3', bucket: 'day', createdDateFrom: '2025-07-01', createdDateTo: '2025-09-30' },
    });
    expect(panelCall(panel.source, filters, { period: '2025-Q3', regionId: '' }).query).not.toHaveProperty('regionId');
  });

  it('asks for the previous period when comparing, and passes a POST body on', () => {
    expect(panelCall(panel.source, filters, { period: '2025-Q1' }, true).query).toMatchObject({
      createdDateFrom: '2024-10-01',
      createdDateTo: '2024-12-31',
    });
    const post = panelCall(
      { endpoint: '/api/thing/list-search', method: 'POST', body: { itemsPerPage: 5 } },
      filters,
      {},
    );
    expect(post).toEqual({ endpoint: '/api/thing/list-search', method: 'POST', query: {}, body: { itemsPerPage: 5 } });
  });

  it('sends no date range when the dashboard has no period filter or the source names none', () => {
    expect(panelCall(panel.source, [], { period: '2025-Q3' }).query).toEqual({ limit: '10' });
    expect(panelCall({ endpoint: '/api/x' }, filters, { period: '2025-Q3' }).query).toEqual({});
  });
});

describe('drillQuery', () => {
  const names = new Set(['regionIds', 'typeIds', 'createdDateFrom', 'createdDateTo', 'statuses']);
  it('puts the period, the row group under the list names and the measure filter; drops what the list does not take', () => {
    const q = drillQuery(
      panel,
      filters,
      { period: '2025-07', regionId: '3', bucket: 'day' },
      { typeId: 7, other: 1 },
      { statuses: ['SEEN', 'DONE'] },
      names,
    );
    expect(Object.fromEntries(q)).toEqual({
      regionIds: '3',
      createdDateFrom: '2025-07-01',
      createdDateTo: '2025-07-31',
      typeIds: '7',
      statuses: 'SEEN,DONE',
    });
  });

  it('a row group value replaces the dashboard filter of the same list name; empty values stay out', () => {
    const q = drillQuery(
      panel,
      filters,
      { period: '2025-07', regionId: '3' },
      { regionId: 5, typeId: null },
      undefined,
      names,
    );
    expect(q.get('regionIds')).toBe('5');
    expect(q.has('typeIds')).toBe(false);
  });
});

describe('aggregateOf and totalsColumn', () => {
  it('reads the entity base and the aggregate name of an aggregate endpoint only', () => {
    expect(aggregateOf('/api/appeal/aggregate/by-type')).toEqual({ base: '/appeal', name: 'by-type' });
    expect(aggregateOf('/api/admin/x/aggregate/y2')).toEqual({ base: '/admin/x', name: 'y2' });
    expect(aggregateOf('/api/appeal/list-search')).toBeUndefined();
  });

  it('a column counts in totals by its own flag, else by a numeric format', () => {
    const numeric = (f: string | undefined) => f === 'integer';
    expect(totalsColumn({ field: 'a', titleKey: 't', format: 'integer' }, numeric)).toBe(true);
    expect(totalsColumn({ field: 'a', titleKey: 't', format: 'integer', total: false }, numeric)).toBe(false);
    expect(totalsColumn({ field: 'a', titleKey: 't', total: true }, numeric)).toBe(true);
    expect(totalsColumn({ field: 'a', titleKey: 't' }, numeric)).toBe(false);
  });
});

describe('a source whose records stand for a quarter or a year (periodWiden)', () => {
  const filters = [{ name: 'period', titleKey: 'p', period: { units: ['month', 'quarter', 'year'] as const } }];
  const source = (periodWiden: 'quarter' | 'year') => ({
    endpoint: '/api/x/aggregate/y',
    period: 'yearStart',
    periodWiden,
  });
  it('asks for the whole year of a quarter, and the whole quarter of a month', () => {
    expect(panelCall(source('year'), filters as never, { period: '2025-Q3' }).query).toEqual({
      yearStartFrom: '2025-01-01',
      yearStartTo: '2025-12-31',
    });
    expect(panelCall(source('quarter'), filters as never, { period: '2025-08' }).query).toEqual({
      yearStartFrom: '2025-07-01',
      yearStartTo: '2025-09-30',
    });
  });
  it('widens the previous period too, and a custom range to the quarters it touches', () => {
    expect(panelCall(source('year'), filters as never, { period: '2025-Q1' }, true).query.yearStartFrom).toBe(
      '2024-01-01',
    );
    expect(widenPeriod(parsePeriod('2025-02-10..2025-04-02')!, 'quarter')).toMatchObject({
      from: '2025-01-01',
      to: '2025-06-30',
    });
  });
});
