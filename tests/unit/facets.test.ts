/**
 * A list screen's facets (issue #19 docflow2): `npm run check` names a facet whose filter,
 * empty filter or aggregate does not fit, with file and pointer; the counts are asked without
 * the facet's own filters (so choosing a value does not change the strip).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';
import { facetQuery } from '../../src/engine/list/ListFacets.tsx';

let pristine: DefinitionSources;
beforeAll(async () => {
  pristine = (await loadDefinitionSources(REPO_ROOT)).sources;
});
const clone = (): DefinitionSources =>
  new Map([...pristine].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
const run = (s: DefinitionSources): DefinitionProblem[] => checkDefinitions(s, implementationNames, DEFINITION_RULES);
const FILE = 'screens/correspondence-list.json';

describe('list facets', () => {
  it('names a facet whose filter, empty filter or aggregate does not fit', () => {
    expect(run(clone()).filter((p) => p.file === FILE)).toEqual([]);
    const s = clone();
    // biome-ignore lint/suspicious/noExplicitAny: definitions are edited as plain JSON here
    const options = (s.get(FILE)!.json as any).options;
    options.facets = [
      { filter: 'statusId', aggregate: 'by-department' },
      { filter: 'regionIds', aggregate: 'by-department', emptyFilter: 'withoutDepartment' },
      { filter: 'departmentIds', aggregate: 'dashboard-sent', emptyFilter: 'keyword' },
    ];
    const problems = run(s).filter((p) => p.file === FILE);
    const at = (pointer: string, text: RegExp) =>
      expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
        expect.objectContaining({ pointer, message: expect.stringMatching(text) }),
      );
    at('/options/facets/0/filter', /no "in" filter "statusId"/);
    at('/options/facets/1/emptyFilter', /no "empty" filter "withoutDepartment" on \/regionId/);
    at('/options/facets/1/aggregate', /grouping by \/regionId alone/);
    at('/options/facets/2/emptyFilter', /no "empty" filter "keyword"/);
    at('/options/facets/2/aggregate', /no aggregate "dashboard-sent" grouping by \/departmentId/);
  });

  it("asks the counts without the facet's own filters", () => {
    const facet = { filter: 'departmentIds', aggregate: 'by-department', emptyFilter: 'withoutDepartment' };
    expect(facetQuery({ departmentIds: '3', withoutDepartment: 'true', statusId: 'SEEN' }, facet)).toEqual({
      statusId: 'SEEN',
    });
  });
});
