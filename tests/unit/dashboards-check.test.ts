import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';

/**
 * The dashboards rule of `npm run check` (src/definitions/check/dashboards.ts) over the real
 * definitions, each test breaking one public dashboard (screens/fair-price.json) on purpose.
 */
let pristine: DefinitionSources;
beforeAll(async () => {
  const { sources, problems } = await loadDefinitionSources(REPO_ROOT);
  expect(problems).toEqual([]);
  pristine = sources;
});

const FILE = 'screens/fair-price.json';
const clone = (): DefinitionSources =>
  new Map([...pristine].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
/** The dashboard's options in a fresh copy of the definitions, and the problems after `change`. */
function broken(change: (options: any) => void): DefinitionProblem[] {
  const s = clone();
  change((s.get(FILE)!.json as any).options);
  return checkDefinitions(s, implementationNames, DEFINITION_RULES).filter((p) => p.file === FILE);
}
const expectProblem = (problems: DefinitionProblem[], pointer: string, text: RegExp) =>
  expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
    expect.objectContaining({ file: FILE, pointer, message: expect.stringMatching(text) }),
  );

describe('npm run check: dashboards', () => {
  it('accepts a dashboard with tabs, a period, a drill target and its filters, column groups and group rows', () => {
    const problems = broken((o) => {
      o.filters.push({ name: 'period', titleKey: 'engine.dashboard.period.unit', period: { units: ['month'] } });
      o.tabs = [
        { id: 'a', titleKey: 'engine.dashboard.total', panels: ['prices'] },
        { id: 'b', titleKey: 'engine.dashboard.total', panels: ['trend'] },
      ];
      const prices = o.panels[0];
      prices.source.period = 'date';
      prices.drill = { screen: 'fair-price-list', by: { productId: 'productId' } };
      prices.columnGroups = [{ titleKey: 'engine.dashboard.total', columns: ['minPrice', 'maxPrice'] }];
      prices.groupRows = { field: 'productId', totals: { endpoint: '/api/fair-price/aggregate/by-product' } };
    });
    expect(problems).toEqual([]);
  });

  it('rejects a tab naming a missing panel, a panel in two tabs and a panel in none', () => {
    const problems = broken((o) => {
      o.tabs = [
        { id: 'a', titleKey: 'engine.dashboard.total', panels: ['prices', 'trnd'] },
        { id: 'b', titleKey: 'engine.dashboard.total', panels: ['prices'] },
      ];
    });
    expectProblem(
      problems,
      '/options/tabs/0/panels/1',
      /panel "trnd" is not a panel of this dashboard; did you mean "trend"\?/,
    );
    expectProblem(problems, '/options/panels/0', /panel "prices" is in 2 tabs \(a, b\)/);
    expectProblem(problems, '/options/panels/1', /panel "trend" is in no tab/);
  });

  it('rejects an aggregate the entity does not declare', () => {
    const problems = broken((o) => {
      o.panels[0].source.endpoint = '/api/fair-price/aggregate/by-prodct';
    });
    expectProblem(
      problems,
      '/options/panels/0/source/endpoint',
      /aggregate "by-prodct" is not an aggregate of fair-price; did you mean "by-product"\?/,
    );
  });

  it('rejects a period that is not a dateRange filter of the source entity, also in the totals source', () => {
    const problems = broken((o) => {
      o.panels[0].source.period = 'dat';
      o.panels[0].columns[0].field = 'productId';
      o.panels[0].groupRows = {
        field: 'productId',
        totals: { endpoint: '/api/fair-price/aggregate/trend', period: 'regionId' },
      };
    });
    expectProblem(
      problems,
      '/options/panels/0/source/period',
      /period filter "dat" is not a dateRange filter of fair-price's grid; did you mean "date"\?/,
    );
    expectProblem(
      problems,
      '/options/panels/0/groupRows/totals/period',
      /period filter "regionId" is not a dateRange filter/,
    );
  });

  it('rejects a drill target that is not a list of the source entity and a drill.by that is no list filter', () => {
    const problems = broken((o) => {
      o.panels[0].drill = { screen: 'fair-price', by: { productId: 'productIds' } };
    });
    expectProblem(
      problems,
      '/options/panels/0/drill/screen',
      /screen "fair-price" is not a list screen of fair-price.*fair-price-list/,
    );
    expectProblem(
      problems,
      '/options/panels/0/drill/by/productId',
      /list filter "productIds" is not a filter of fair-price's grid; did you mean "productId"\?/,
    );
    const missing = broken((o) => {
      o.panels[0].drill = { screen: 'fair-price-lst' };
    });
    expectProblem(
      missing,
      '/options/panels/0/drill/screen',
      /screen "fair-price-lst" is not a list screen of fair-price; did you mean "fair-price-list"\?/,
    );
  });

  it('rejects column groups and group rows naming columns the panel lacks', () => {
    const problems = broken((o) => {
      o.panels[0].columnGroups = [{ titleKey: 'engine.dashboard.total', columns: ['minPrice', 'maxPrise'] }];
      o.panels[0].groupRows = { field: 'region' };
    });
    expectProblem(
      problems,
      '/options/panels/0/columnGroups/0/columns/1',
      /column "maxPrise" is not a column of this panel; did you mean "maxPrice"\?/,
    );
    expectProblem(problems, '/options/panels/0/groupRows/field', /column "region" is not a column of this panel/);
  });
});
