/**
 * The checklist capability's pure part (a check marked conform whose measurement breaks a rule,
 * the overall result, the non-conform count) and its `npm run check` rule.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';
import { breaksRule, evaluateChecklist, type Checklist } from '../../src/server/capabilities/checklist/evaluate.ts';

const spec: Checklist = {
  checks: ['/a/road', '/a/roof', '/a/spacing', '/b'],
  conform: 'OK',
  nonConform: 'BAD',
  result: '/result',
  rules: [
    { check: '/a/road', field: '/road', op: 'min', limit: 1, messageKey: 'm.road' },
    {
      check: '/a/roof',
      field: '/height',
      op: 'max',
      limit: { field: '/building', divisor: 3 },
      when: { field: '/place', in: ['ROOF'] },
      messageKey: 'm.roof',
    },
    {
      check: '/a/spacing',
      field: '/near',
      op: 'min',
      limit: { byField: '/size', values: { '1': 50, '4': 200 } },
      messageKey: 'm.spacing',
    },
  ],
};
const allOk = { a: { road: 'OK', roof: 'OK', spacing: 'OK' }, b: 'OK' };

describe('checklist rules', () => {
  it('breaks a min rule just below the limit and not at it', () => {
    expect(breaksRule(spec.rules![0]!, { road: 0.99 })).toEqual({ value: 0.99, limit: 1 });
    expect(breaksRule(spec.rules![0]!, { road: 1 })).toBeUndefined();
    expect(breaksRule(spec.rules![0]!, {})).toBeUndefined();
  });

  it('compares 1/3 of a field exactly and only where the rule applies', () => {
    const roof = spec.rules![1]!;
    expect(breaksRule(roof, { place: 'ROOF', building: 15, height: 5 })).toBeUndefined();
    expect(breaksRule(roof, { place: 'ROOF', building: 10, height: 10 / 3 })).toBeUndefined();
    expect(breaksRule(roof, { place: 'ROOF', building: 15, height: 5.01 })).toEqual({ value: 5.01, limit: 5 });
    expect(breaksRule(roof, { place: 'WALL', building: 15, height: 9 })).toBeUndefined();
    expect(breaksRule(roof, { place: 'ROOF', height: 9 })).toBeUndefined();
  });

  it('takes the limit by the value of another field; an unlisted value applies none', () => {
    const spacing = spec.rules![2]!;
    expect(breaksRule(spacing, { size: 4, near: 199.99 })).toEqual({ value: 199.99, limit: 200 });
    expect(breaksRule(spacing, { size: 1, near: 50 })).toBeUndefined();
    expect(breaksRule(spacing, { size: 2, near: 1 })).toBeUndefined();
  });

  it('refuses only a check marked conform, and derives the result and the count', () => {
    expect(evaluateChecklist(spec, { ...allOk, road: 0.5 })).toEqual({
      problems: [{ pointer: '/a/road', key: 'm.road', params: { value: 0.5, limit: 1 } }],
      result: 'OK',
      nonConformCount: 0,
    });
    const marked = { ...allOk, a: { ...allOk.a, road: 'BAD' }, road: 0.5 };
    expect(evaluateChecklist(spec, marked)).toEqual({ problems: [], result: 'BAD', nonConformCount: 1 });
    expect(evaluateChecklist(spec, { a: allOk.a })).toEqual({ problems: [], result: undefined, nonConformCount: 0 });
  });
});

describe('npm run check of checklist', () => {
  let pristine: DefinitionSources;
  beforeAll(async () => {
    pristine = (await loadDefinitionSources(REPO_ROOT)).sources;
  });
  const run = (s: DefinitionSources): DefinitionProblem[] => checkDefinitions(s, implementationNames, DEFINITION_RULES);

  it('names a check without the conform values, a rule on a text field, a rule outside the checks and a missing text', () => {
    const s = new Map([...pristine].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
    const file = 'schemas/advertising-inventory/entity.json';
    const cl = (s.get(file)!.json as { checklist: Checklist }).checklist;
    cl.checks[0] = '/address';
    cl.rules![1]!.field = '/address';
    cl.rules![2]!.check = '/findings';
    cl.rules![3]!.messageKey = 'entity.advertising-inventory.rule.nothing';
    const problems = run(s);
    const expectProblem = (pointer: string, text: RegExp) =>
      expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
        expect.objectContaining({ file, pointer, message: expect.stringMatching(text) }),
      );
    expectProblem('/checklist/checks/0', /does not offer the value "CONFORM"/);
    expectProblem('/checklist/rules/1/field', /must be of type number or integer/);
    expectProblem('/checklist/rules/2/check', /is not one of the checks/);
    expect(problems.some((p) => p.message.includes('entity.advertising-inventory.rule.nothing'))).toBe(true);
  });
});
