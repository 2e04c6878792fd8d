/**
 * Screen subjects (`screenSubjects` of schemas/_access/access.json): a dashboard spanning several
 * entities is guarded by a subject of its own (`read ChairmanMonitoring`), which `npm run check`
 * accepts in screen and role permissions only when declared, and refuses when an entity or a
 * subsystem already owns the name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
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
const SCREEN = 'screens/chairman-monitoring.json';

describe('npm run check: screen subjects', () => {
  it('accepts the declared subject in the screen and in a role', () => {
    const s = clone();
    const access = json(s, ACCESS);
    expect(access.screenSubjects).toContain('ChairmanMonitoring');
    expect(json(s, SCREEN).permission).toBe('read ChairmanMonitoring');
    access.roles.find((r: any) => r.code === 'curator').permissions.push('read ChairmanMonitoring');
    expect(run(s)).toEqual([]);
  });

  it('names the screen and the role when the subject is not declared', () => {
    const s = clone();
    const access = json(s, ACCESS);
    access.screenSubjects = [];
    const i = access.roles.findIndex((r: any) => r.code === 'curator');
    access.roles[i].permissions.push('read ChairmanMonitoring');
    const problems = run(s);
    expect(problems, JSON.stringify(problems, null, 1)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: SCREEN, message: expect.stringMatching(/ChairmanMonitoring/) }),
        expect.objectContaining({
          file: ACCESS,
          pointer: `/roles/${i}/permissions/${access.roles[i].permissions.length - 1}`,
          message: expect.stringMatching(/subject "ChairmanMonitoring"/),
        }),
      ]),
    );
  });

  it('refuses a screen subject an entity or a subsystem already has', () => {
    const s = clone();
    // The declared subjects stay (the screens and roles use them), two taken ones are added.
    const access = json(s, ACCESS);
    const n = access.screenSubjects.length;
    access.screenSubjects = [...access.screenSubjects, 'Appeal', 'DataHealth'];
    const problems = run(s);
    expect(problems.filter((p) => p.file === ACCESS).map((p) => p.pointer)).toEqual([
      `/screenSubjects/${n}`,
      `/screenSubjects/${n + 1}`,
    ]);
  });
});
