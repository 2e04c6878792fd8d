/**
 * Every role of schemas/_access/access.json has a name in the four languages (issue #17,
 * item 6): `npm run check` names a missing one by file and pointer, and says where to write it.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';

let pristine: DefinitionSources;
beforeAll(async () => {
  const { sources, problems } = await loadDefinitionSources(REPO_ROOT);
  expect(problems).toEqual([]);
  pristine = sources;
});

const clone = (): DefinitionSources =>
  new Map([...pristine].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
const json = (s: DefinitionSources, file: string): any => s.get(file)!.json;
const run = (s: DefinitionSources): DefinitionProblem[] => checkDefinitions(s, implementationNames, DEFINITION_RULES);
const ACCESS = 'schemas/_access/access.json';

describe('npm run check: role names in four languages', () => {
  it('names a role whose Russian name is missing, with the file and pointer to write it at', () => {
    const s = clone();
    const access = json(s, ACCESS);
    const i = access.roles.findIndex((r: any) => r.code === 'executor');
    delete json(s, 'schemas/portal-role/i18n.json').ru.entity['portal-role'].role.executor;
    const problems = run(s);
    expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
      expect.objectContaining({
        file: ACCESS,
        pointer: `/roles/${i}/code`,
        message: expect.stringMatching(
          /"entity\.portal-role\.role\.executor" is missing in ru .*schemas\/portal-role\/i18n\.json#\/ru\/entity\/portal-role\/role\/executor/,
        ),
      }),
    );
  });

  it('names a new role without any name', () => {
    const s = clone();
    const access = json(s, ACCESS);
    access.roles.push({ code: 'observer', name: 'Observer', scope: 'ALL', permissions: ['read Appeal'] });
    const problems = run(s);
    expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
      expect.objectContaining({
        file: ACCESS,
        pointer: `/roles/${access.roles.length - 1}/code`,
        message: expect.stringMatching(/"entity\.portal-role\.role\.observer" is missing in uz, uzCyrillic, ru, en/),
      }),
    );
  });

  it('asks for valueLabels on the role code when roles have no names at all', () => {
    const s = clone();
    delete json(s, 'schemas/portal-role/schema.json').properties.code.valueLabels;
    const problems = run(s);
    expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
      expect.objectContaining({
        file: 'schemas/portal-role/schema.json',
        pointer: '/properties/code',
        message: expect.stringMatching(/roles need names in each language.*valueLabels/),
      }),
    );
  });

  it("names a permission-matrix subject whose label text is missing, at the widget's options", () => {
    const s = clone();
    const ui = json(s, 'schemas/portal-role/ui.json');
    const subjects = ui.uiSchema.permissions['ui:options'].subjects;
    const i = subjects.findIndex((x: any) => x.subject === 'DataHealth');
    subjects[i].labelKey = 'entity.portal-role.subject.DataHelth';
    const problems = run(s);
    expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
      expect.objectContaining({
        file: 'schemas/portal-role/ui.json',
        pointer: `/uiSchema/permissions/ui:options/subjects/${i}/labelKey`,
        message: expect.stringMatching(/"entity\.portal-role\.subject\.DataHelth" is missing/),
      }),
    );
  });
});
