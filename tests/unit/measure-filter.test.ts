/**
 * Aggregate measure filters (`measures[].filter`): how they are read against the entity's grid
 * filters (list-search's query schema and kinds), the `npm run check` messages for a filter
 * that names no grid filter or carries a value list-search would refuse, and the SQL they
 * compile to (`FILTER (WHERE …)` with bound values after the scope's).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry, type EntityDefinition } from '../../src/definitions/registry.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createEntityTable } from '../../src/server/db/entity-table.ts';
import { aggregateQuery } from '../../src/server/store/aggregate.ts';
import { measureFilterQuery, parseMeasureFilter } from '../../src/server/store/measure-filter.ts';

let pristine: DefinitionSources;
let appeal: EntityDefinition;
beforeAll(async () => {
  pristine = (await loadDefinitionSources(REPO_ROOT)).sources;
  appeal = createDefinitionRegistry(pristine).entities.get('appeal')!;
});

describe('a measure filter is read like a list-search query string', () => {
  it('joins lists with commas and types values by the query schema', () => {
    expect(measureFilterQuery({ appealTypeIds: [1, 2], regionId: 3, statusId: 'SEEN' })).toEqual({
      appealTypeIds: '1,2',
      regionId: '3',
      statusId: 'SEEN',
    });
    const { parsed, problems } = parseMeasureFilter(appeal, {
      statusId: 'EXPLAINED',
      appealTypeIds: '1,2',
      regionId: '14',
      createdDateFrom: '2025-01-01',
    });
    expect(problems).toEqual([]);
    expect(parsed.values).toEqual({
      statusId: 'EXPLAINED',
      appealTypeIds: '1,2',
      regionId: 14,
      createdDateFrom: '2025-01-01',
    });
    expect(parsed.filters.map((f) => f.name)).toEqual(['statusId', 'regionId', 'createdDate', 'appealTypeIds']);
  });

  it('names what is wrong: an unknown parameter (with the near one), a value of the wrong type or form', () => {
    const problem = (filter: Record<string, unknown>) =>
      parseMeasureFilter(appeal, filter as never).problems.map((p) => `${p.key}: ${p.message}`);
    expect(problem({ statusID: 'SEEN' })).toEqual([expect.stringMatching(/^statusID: .*did you mean "statusId"\?/)]);
    expect(problem({ regionId: 'north' })).toEqual([expect.stringMatching(/^regionId: value "north" .*integer/)]);
    expect(problem({ createdDateTo: '2025-02-30x' })).toEqual([expect.stringMatching(/^createdDateTo: .*format/)]);
    expect(problem({ appealTypeIds: ['one', 2] })).toEqual([expect.stringMatching(/^appealTypeIds: .*numbers/)]);
    expect(problem({ keyword: ' ' })).toEqual([expect.stringMatching(/^keyword: .*no value/)]);
  });
});

describe('npm run check on measure filters', () => {
  const withAggregate = (measures: unknown[]): DefinitionProblem[] => {
    const s = new Map([...pristine].map(([k, v]) => [k, { path: v.path, json: structuredClone(v.json) }]));
    const manifest = s.get('schemas/appeal/entity.json')!.json as Record<string, any>;
    manifest.aggregates = { ...manifest.aggregates, 'by-outcome': { groupBy: ['/regionId'], measures } };
    return checkDefinitions(s, implementationNames, DEFINITION_RULES);
  };

  it('passes filters list-search would take', () => {
    const problems = withAggregate([
      { name: 'all', fn: 'count' },
      { name: 'explained', fn: 'count', filter: { statusId: 'EXPLAINED', appealTypeIds: [1, 2] } },
      { name: 'lately', fn: 'count', filter: { createdDateFrom: '2025-01-01', applicantType: 'LEGAL' } },
    ]);
    expect(problems).toEqual([]);
  });

  it('reports each bad key at its JSON pointer in the manifest', () => {
    const problems = withAggregate([
      { name: 'all', fn: 'count' },
      { name: 'bad', fn: 'count', filter: { statuses: 'SEEN', regionId: 'north' } },
    ]);
    const at = (key: string) => `/aggregates/by-outcome/measures/1/filter/${key}`;
    expect(problems).toEqual([
      expect.objectContaining({
        file: 'schemas/appeal/entity.json',
        pointer: at('statuses'),
        message: expect.stringMatching(/"statuses" is not a filter of this entity's list.*Filters: .*statusId/),
      }),
      expect.objectContaining({ pointer: at('regionId'), message: expect.stringMatching(/must be integer/) }),
    ]);
  });
});

describe('the SQL of a filtered measure', () => {
  it('narrows the aggregate function with FILTER, its values bound after the scope parameters', () => {
    const table = createEntityTable(appeal);
    const { sql, params } = aggregateQuery(
      appeal,
      table,
      {
        measures: [
          { name: 'all', fn: 'count' },
          { name: 'explained', fn: 'count', filter: { statusId: 'EXPLAINED', appealTypeIds: '1,2' } },
        ],
      },
      { where: 'WHERE region = $1', params: [14] },
      undefined,
    );
    expect(params).toEqual([14, 'EXPLAINED', [1, 2]]);
    expect(sql).toMatch(/count\(\*\)::int AS "all"/);
    expect(sql).toMatch(/count\(\*\) FILTER \(WHERE .+ = \$2 AND .+ = ANY\(\$3::bigint\[\]\)\)::int AS "explained"/);
    // No group: no GROUP BY, so the answer is one row however few rows match.
    expect(sql).not.toMatch(/GROUP BY/);
  });
});
