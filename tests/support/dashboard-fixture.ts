/**
 * A small test dashboard over appeals, for the dashboards' contract tests (added to a copy of
 * the definitions, never to the repository's): aggregates whose measures carry their own
 * filters, and a screen with a grouped, compared table with column groups, a paged list, a
 * chart, number tiles and a panel behind a permission.
 */
import { LOCALES } from '../../src/shared/locales.ts';

/** The measures every test aggregate counts; `filter` is each one's own. */
export const MEASURES: Array<{ name: string; fn: 'count'; filter?: Record<string, string | number[]> }> = [
  { name: 'all', fn: 'count' },
  { name: 'explained', fn: 'count', filter: { statusId: 'EXPLAINED' } },
  { name: 'early', fn: 'count', filter: { createdDateTo: '2025-08-15' } },
  { name: 'proposals', fn: 'count', filter: { appealTypeIds: [2] } },
];

/** Added to the appeal manifest's `aggregates`. */
export const OUTCOME_AGGREGATES = {
  'test-outcomes': { groupBy: ['/regionId', '/appealTypeId'], measures: MEASURES },
  'test-by-region': { groupBy: ['/regionId'], measures: MEASURES },
  'test-summary': { measures: MEASURES },
};

const source = (name: string) => ({
  endpoint: `/api/appeal/aggregate/${name}`,
  period: 'createdDate',
  filters: ['regionId'],
});
const number = (field: string) => ({ field, titleKey: `test.dashboard.${field}`, format: 'number' });

/** screens/test-dashboard.json */
export const DASHBOARD = {
  $schema: '../schemas/_meta/screen.schema.json',
  id: 'test-dashboard',
  route: '/test-dashboard',
  kind: 'dashboard',
  titleKey: 'test.dashboard.title',
  permission: 'read Appeal',
  options: {
    filters: [
      {
        name: 'period',
        titleKey: 'test.dashboard.period',
        period: { units: ['month', 'quarter', 'year', 'custom'], default: 'quarter' },
      },
      { name: 'regionId', titleKey: 'test.dashboard.region', reference: 'region' },
    ],
    panels: [
      {
        id: 'outcomes',
        titleKey: 'test.dashboard.outcomes',
        kind: 'table',
        source: source('test-outcomes'),
        columns: [
          { field: 'regionId', titleKey: 'test.dashboard.region', reference: 'region' },
          { field: 'appealTypeId', titleKey: 'test.dashboard.type', reference: 'appeal-type' },
          number('all'),
          number('explained'),
          number('early'),
        ],
        columnGroups: [{ titleKey: 'test.dashboard.outcome', columns: ['explained', 'early'] }],
        groupRows: { field: 'regionId', totals: source('test-by-region') },
        compare: 'previousPeriod',
        drill: { screen: 'appeal-list', by: { appealTypeId: 'appealTypeIds' } },
      },
      {
        id: 'list',
        titleKey: 'test.dashboard.list',
        kind: 'table',
        source: {
          endpoint: '/api/appeal/list-search',
          method: 'POST',
          period: 'createdDate',
          filters: ['regionId'],
          body: { itemsPerPage: 20 },
        },
        columns: [
          { field: 'id', titleKey: 'test.dashboard.id', format: 'year' },
          { field: 'regionId', titleKey: 'test.dashboard.region', reference: 'region' },
          { field: 'status', titleKey: 'test.dashboard.status', format: 'status' },
        ],
      },
      {
        id: 'chart',
        titleKey: 'test.dashboard.chart',
        kind: 'bar',
        source: source('test-by-region'),
        x: { field: 'regionId', titleKey: 'test.dashboard.region', reference: 'region' },
        y: [number('all')],
      },
      {
        id: 'tiles',
        titleKey: 'test.dashboard.tiles',
        kind: 'stat',
        source: source('test-summary'),
        columns: [number('all')],
      },
      {
        id: 'secret',
        titleKey: 'test.dashboard.secret',
        kind: 'table',
        permission: 'delete Appeal',
        source: source('test-summary'),
        columns: [number('all')],
      },
    ],
  },
};

/** The fixture's texts (the same English in every language file, which the check asks for). */
export function fixtureTexts(): Record<string, Record<string, unknown>> {
  const dashboard = {
    title: 'Test dashboard',
    period: 'Period',
    region: 'Region',
    type: 'Type',
    all: 'All',
    explained: 'Explained',
    early: 'Early',
    outcome: 'Outcome',
    outcomes: 'Outcomes',
    list: 'Appeals',
    id: 'Number',
    status: 'Status',
    chart: 'By region',
    tiles: 'Tiles',
    secret: 'Secret',
  };
  return Object.fromEntries(LOCALES.map((l) => [l, { test: { dashboard } }]));
}
