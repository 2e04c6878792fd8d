/**
 * `npm run check` on what the pharmacy desk (issue #19) added to the definitions: a list screen's
 * `fixedFilters` name filters of the entity's grid and states of its machine — each mistake named
 * with file and pointer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';

let pristine: DefinitionSources;
beforeAll(async () => {
  pristine = (await loadDefinitionSources(REPO_ROOT)).sources;
});
const clone = (): DefinitionSources =>
  new Map([...pristine].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
// biome-ignore lint/suspicious/noExplicitAny: definitions are edited as plain JSON here
const json = (s: DefinitionSources, file: string): any => s.get(file)!.json;
const run = (s: DefinitionSources): DefinitionProblem[] => checkDefinitions(s, implementationNames, DEFINITION_RULES);
const has = (problems: DefinitionProblem[], file: string, pointer: string, text: RegExp) =>
  expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
    expect.objectContaining({ file, pointer, message: expect.stringMatching(text) }),
  );

describe('check of the pharmacy desk definitions', () => {
  it('passes the real definitions', () => {
    expect(run(clone())).toEqual([]);
  });

  it('names a fixed filter the grid lacks and a status the machine lacks', () => {
    const s = clone();
    const file = 'screens/pharmacy-desk-in-execution.json';
    json(s, file).options.fixedFilters = { statuses: 'PROCCESS,IN_PROGRESS', noSuchFilter: 'x' };
    const problems = run(s);
    has(problems, file, '/options/fixedFilters/statuses', /no state "IN_PROGRESS"/);
    has(problems, file, '/options/fixedFilters/noSuchFilter', /has no filter "noSuchFilter"/);
  });

  it('refuses fixedFilters on a screen that is not a list', () => {
    const s = clone();
    const file = 'screens/pharmacy-appeal-detail.json';
    json(s, file).options = { ...json(s, file).options, fixedFilters: { statuses: 'FINISHED' } };
    has(run(s), file, '/options/fixedFilters', /need a list screen/);
  });
});
