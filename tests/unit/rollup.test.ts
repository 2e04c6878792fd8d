/**
 * Which aggregates get a summary table (src/server/store/rollup.ts) and what it is keyed by:
 * decided from the definitions, so these run without a database.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry, type DefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createEntityTable } from '../../src/server/db/entity-table.ts';
import type { Aggregate } from '../../src/generated/meta.ts';
import { planRollup, rollupSql } from '../../src/server/store/rollup.ts';
import { aggregateQuery } from '../../src/server/store/aggregate.ts';

let registry: DefinitionRegistry;
beforeAll(async () => {
  registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
});

/** The plan of an appeal aggregate; bucketed by month so it needs no dashboard. */
function plan(measures: Array<Record<string, unknown>>, groupBy: string[] = ['/appealTypeId']) {
  const def = registry.entities.get('appeal')!;
  const aggregate = { groupBy, dateBucket: { field: '/createdAt', units: ['month'] }, measures } as Aggregate;
  const withAggregate = { ...def, manifest: { ...def.manifest, aggregates: { x: aggregate } } };
  const table = createEntityTable(withAggregate);
  return { rollup: planRollup(withAggregate, table, 'x', aggregate, registry), table, def: withAggregate, aggregate };
}

describe('summary table plans', () => {
  it('key the groups, the region and the month of the bucket; count, sum and average', () => {
    const { rollup } = plan([
      { name: 'n', fn: 'count' },
      { name: 'total', fn: 'sum', field: '/topicId' },
      { name: 'mean', fn: 'avg', field: '/topicId' },
    ]);
    expect(rollup?.keys.map((k) => `${k.column}${k.month ? ' by month' : ''}`)).toEqual([
      '"f_appeal_type_id"',
      'created_at by month',
      'region',
    ]);
    expect(rollup?.sums).toEqual([{ column: '"f_topic_id"', sum: 's0', count: 'c0' }]);
  });

  it('key a measure filter on a status or a reference list by its column', () => {
    const { rollup } = plan([{ name: 'explained', fn: 'count', filter: { statusId: 'EXPLAINED' } }]);
    expect(rollup?.keys.map((k) => k.column)).toContain('status');
  });

  it('are none for a minimum or maximum, or a measure filter on a date range or keyword', () => {
    expect(plan([{ name: 'n', fn: 'max', field: '/appealTypeId' }]).rollup).toBeUndefined();
    expect(plan([{ name: 'due', fn: 'count', filter: { createdDateTo: '2026-01-10' } }]).rollup).toBeUndefined();
    expect(plan([{ name: 'kw', fn: 'count', filter: { keyword: 'narx' } }]).rollup).toBeUndefined();
  });

  it('answer whole months only, and leave a keyword to the table', () => {
    const { rollup, table, def, aggregate } = plan([{ name: 'n', fn: 'count' }]);
    const sql = (where: string) => aggregateQuery(def, table, aggregate, { where, params: [] }, 'month').sql;
    const months = { createdDateFrom: '2026-01-01', createdDateTo: '2026-03-31' };
    expect(rollupSql(rollup, table, sql('WHERE created_at >= $1 AND created_at < $2'), months, 'month')).toMatch(
      /FROM rollup_appeal_\w+ WHERE n > 0 AND \(created_at >= \$1 AND created_at < \$2\)/,
    );
    const days = { createdDateFrom: '2026-01-01', createdDateTo: '2026-03-30' };
    expect(rollupSql(rollup, table, sql('WHERE created_at >= $1 AND created_at < $2'), days, 'month')).toBeUndefined();
    expect(rollupSql(rollup, table, sql('WHERE keywords LIKE $1'), { keyword: 'narx' }, 'month')).toBeUndefined();
  });
});
