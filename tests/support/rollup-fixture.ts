import type { DefinitionsFixture } from './definitions-fixture.ts';

/**
 * Count-by aggregates of appeals and compliance cases and one dashboard screen showing them
 * by quarter or year and region, for the summary-table contract test and for
 * `npm run bench:dashboards` while the real dashboards are not there yet. Written into a
 * definitions fixture (a copy), never into the repository's definitions.
 */
export const FIXTURE_SCREEN = 'fixture-dashboards';

const count = [{ name: 'count', fn: 'count' }];

/** The aggregates per entity: `fixture-` names so they never clash with real ones. */
export const FIXTURE_AGGREGATES: Record<string, Record<string, unknown>> = {
  appeal: {
    'fixture-by-type': { groupBy: ['/appealTypeId'], measures: count },
    'fixture-by-topic': { groupBy: ['/topicId'], measures: count },
    'fixture-by-region-status': { groupBy: ['/regionId', '/status'], measures: count },
    'fixture-by-month': { dateBucket: { field: '/createdAt', units: ['month', 'day'] }, measures: count },
  },
  'compliance-case': {
    'fixture-by-region-status': { groupBy: ['/regionId', '/status'], measures: count },
    'fixture-amount-by-region': {
      groupBy: ['/regionId'],
      measures: [
        { name: 'count', fn: 'count' },
        { name: 'amount', fn: 'sum', field: '/amount' },
        { name: 'average', fn: 'avg', field: '/amount' },
      ],
    },
    // A maximum cannot be taken back on delete: no summary table, answered from the entity table.
    'fixture-largest-by-region': {
      groupBy: ['/regionId'],
      measures: [{ name: 'largest', fn: 'max', field: '/amount' }],
    },
  },
};

/** Which grid filter receives the period, per entity. */
const PERIOD: Record<string, string> = { appeal: 'createdDate', 'compliance-case': 'caseDate' };

/** Adds the aggregates and the dashboard screen to a definitions fixture. */
export function addFixtureDashboards(fixture: DefinitionsFixture): void {
  const panels: unknown[] = [];
  for (const [entity, aggregates] of Object.entries(FIXTURE_AGGREGATES)) {
    fixture.edit(`schemas/${entity}/entity.json`, (m: { aggregates?: Record<string, unknown> }) => {
      m.aggregates = { ...m.aggregates, ...aggregates };
    });
    for (const [name, aggregate] of Object.entries(aggregates)) {
      const a = aggregate as { groupBy?: string[]; dateBucket?: unknown };
      const field = a.groupBy?.[0]?.slice(1) ?? 'bucket';
      panels.push({
        id: `${entity}-${name}`,
        titleKey: `entity.${entity}.title`,
        kind: 'table',
        source: { endpoint: `/api/${entity}/aggregate/${name}`, filters: ['regionId'], period: PERIOD[entity] },
        columns: [
          { field, titleKey: 'common.filter.region' },
          { field: 'count', titleKey: `entity.${entity}.title`, drill: false },
        ],
      });
    }
  }
  // A list panel: the newest appeals of the period (list-search, its first page and its total).
  panels.push({
    id: 'appeal-latest',
    titleKey: 'entity.appeal.title',
    kind: 'table',
    source: {
      endpoint: '/api/appeal/list-search',
      method: 'POST',
      body: { page: 0, itemsPerPage: 10, sortBy: ['createdAt'], sortDesc: [true] },
      filters: ['regionId'],
      period: PERIOD.appeal,
    },
    columns: [{ field: 'id', titleKey: 'entity.appeal.title', drill: false }],
  });
  fixture.write(`screens/${FIXTURE_SCREEN}.json`, {
    $schema: '../schemas/_meta/screen.schema.json',
    id: FIXTURE_SCREEN,
    description: 'Fixture: counts of appeals and compliance cases by quarter or year and region.',
    route: `/${FIXTURE_SCREEN}`,
    kind: 'dashboard',
    titleKey: 'entity.appeal.title',
    permission: 'read Appeal',
    options: {
      filters: [
        { name: 'period', titleKey: 'common.filter.createdDate', period: { units: ['quarter', 'year'] } },
        { name: 'regionId', titleKey: 'common.filter.region', reference: 'region' },
      ],
      panels,
    },
  });
}
