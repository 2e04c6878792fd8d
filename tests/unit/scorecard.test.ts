/**
 * The scorecard and progress capabilities' pure parts: a derived area's points from a ratio,
 * the band of a percentage, the areas rebuilt from entered points and derived ones (refusing
 * points above an area's maximum), the fields written into a record; and their `npm run check`
 * rules on a broken manifest.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';
import {
  answeredPoints,
  bandOf,
  derivedPoints,
  scoreAreas,
  withScore,
  type Scorecard,
} from '../../src/server/capabilities/scorecard/score.ts';
import { resolveAggregate } from '../../src/server/capabilities/scorecard/derive.ts';
import { progressPercent } from '../../src/server/capabilities/progress/plugin.ts';

const card: Scorecard = {
  fields: {
    unit: '/unitId',
    period: '/period',
    periodStart: '/periodStart',
    key: '/key',
    entered: '/entered',
    areas: '/areas',
    points: '/points',
    maxPoints: '/maxPoints',
    percent: '/percent',
    band: '/band',
  },
  areas: [
    {
      code: 'speed',
      titleKey: 't.speed',
      maxPoints: 5,
      derived: { aggregate: '/api/x/aggregate/y', period: 'created', unit: 'unitId', ratio: ['a', 'b'] },
    },
    { code: 'care', titleKey: 't.care', maxPoints: 3, entered: true },
    { code: 'zeal', titleKey: 't.zeal', maxPoints: 4, entered: true },
  ],
  bands: [
    { code: 'EXCELLENT', minPercent: 90 },
    { code: 'GOOD', minPercent: 75 },
    { code: 'AVERAGE', minPercent: 60 },
    { code: 'SATISFACTORY', minPercent: 45 },
    { code: 'UNSATISFACTORY', minPercent: 0 },
  ],
};

describe('scorecard scoring', () => {
  it('derives points as maxPoints × ratio (2 decimals), inverted on request, none without a denominator', () => {
    expect(derivedPoints(5, 45, 50, false)).toBe(4.5);
    expect(derivedPoints(4, 1, 3, false)).toBe(1.33);
    expect(derivedPoints(5, 2, 8, true)).toBe(3.75);
    expect(derivedPoints(5, 9, 0, false)).toBeNull();
    // A numerator above the denominator (more collected than established) caps at the maximum.
    expect(derivedPoints(4, 12, 10, false)).toBe(4);
  });

  it('bands a percentage at the thresholds, best first', () => {
    expect(bandOf(card.bands, 90)).toBe('EXCELLENT');
    expect(bandOf(card.bands, 89.9)).toBe('GOOD');
    expect(bandOf(card.bands, 60)).toBe('AVERAGE');
    expect(bandOf(card.bands, 44.9)).toBe('UNSATISFACTORY');
    expect(bandOf(card.bands, null)).toBeNull();
  });

  it('rebuilds every area in order; the total, maximum and percent count the areas with points', () => {
    const { result, problems } = scoreAreas(
      card,
      [
        { code: 'zeal', points: 2, note: 'two events' },
        { code: 'speed', points: 5 },
      ],
      new Map([['speed', 4.5]]),
    );
    expect(problems).toEqual([]);
    expect(result.areas).toEqual([
      { code: 'speed', maxPoints: 5, source: 'derived', points: 4.5 },
      { code: 'care', maxPoints: 3, source: 'entered', points: null },
      { code: 'zeal', maxPoints: 4, source: 'entered', points: 2, note: 'two events' },
    ]);
    expect(result).toMatchObject({ points: 6.5, maxPoints: 9, percent: 72.2, band: 'AVERAGE' });
  });

  it('marks a derived area without data and refuses entered points above the maximum at the typed item', () => {
    const { result, problems } = scoreAreas(card, [{ code: 'care', points: 3.5 }], new Map([['speed', null]]));
    expect(result.areas[0]).toEqual({ code: 'speed', maxPoints: 5, source: 'derived', points: null, reason: 'noData' });
    expect(problems).toEqual([{ pointer: '/entered/0/points', key: 'validation.maximum', params: { limit: 3 } }]);
  });

  it('writes the score, the period start and the unit/period key, over whatever was sent', () => {
    const { result } = scoreAreas(card, [], new Map([['speed', null]]));
    const data = withScore(
      card,
      { unitId: 7, period: '2025-Q3', points: 99, percent: 100, band: 'X' },
      result,
      '2025-07-01',
    );
    expect(data).toEqual({
      unitId: 7,
      period: '2025-Q3',
      periodStart: '2025-07-01',
      key: '7/2025-Q3',
      areas: [
        { code: 'speed', maxPoints: 5, source: 'derived', reason: 'noData' },
        { code: 'care', maxPoints: 3, source: 'entered' },
        { code: 'zeal', maxPoints: 4, source: 'entered' },
      ],
      points: 0,
      maxPoints: 0,
    });
  });

  it('scores answered areas from the record (nested answers, unknown or missing ones 0) and writes the weak ones', () => {
    const answeredCard: Scorecard = {
      fields: {
        unit: '/unitId',
        period: '/period',
        areas: '/areas',
        points: '/points',
        maxPoints: '/maxPoints',
        percent: '/percent',
        band: '/band',
        weak: '/weak',
        weakList: '/advice',
      },
      weakBelow: 60,
      areas: [
        {
          code: 'policy',
          titleKey: 't',
          maxPoints: 5,
          answered: { fields: ['/a/one', '/a/two'], values: { YES: 1, PARTIAL: 0.5, NO: 0 } },
        },
        {
          code: 'audit',
          titleKey: 't',
          maxPoints: 3,
          answered: { fields: ['/b', '/c', '/d'], values: { YES: 1, PARTIAL: 0.5 } },
        },
      ],
      bands: [
        { code: 'HIGH', minPercent: 80 },
        { code: 'LOW', minPercent: 0 },
      ],
    };
    const data = { a: { one: 'YES', two: 'PARTIAL' }, b: 'PARTIAL', c: 'MAYBE' };
    expect(answeredPoints(5, answeredCard.areas[0]!.answered!, data)).toBe(3.75);
    const { result, problems } = scoreAreas(answeredCard, undefined, new Map(), data);
    expect(problems).toEqual([]);
    // audit: 3 × (0.5 + 0 + 0) / 3 = 0.5 — below 60 % of 3, weak; policy 3.75 of 5 (75 %) is not.
    expect(result).toMatchObject({ points: 4.25, maxPoints: 8, percent: 53.1, band: 'LOW', weak: ['audit'] });
    expect(result.areas.map((a) => a.source)).toEqual(['answered', 'answered']);
    const written = withScore(answeredCard, { ...data, weak: { policy: true }, advice: [] }, result, undefined);
    expect(written.weak).toEqual({ audit: true });
    expect(written.advice).toEqual([{ area: 'audit', recommendation: 'audit' }]);
  });

  it('finds an aggregate by its URL among the manifests', () => {
    const def = { manifest: { base: '/x', aggregates: { y: { measures: [{ name: 'a', fn: 'count' }] } } } };
    const entities = [def] as never;
    expect(resolveAggregate(entities, '/api/x/aggregate/y')?.name).toBe('y');
    expect(resolveAggregate(entities, '/api/x/aggregate/z')).toBeUndefined();
    expect(resolveAggregate(entities, '/api/other/aggregate/y')).toBeUndefined();
  });
});

describe('progress', () => {
  it('is done / plan × 100 with one decimal, none without a positive plan', () => {
    expect(progressPercent(45, 60)).toBe(75);
    expect(progressPercent(1, 3)).toBe(33.3);
    expect(progressPercent(12, 10)).toBe(120);
    expect(progressPercent(5, 0)).toBeNull();
    expect(progressPercent(undefined, 10)).toBeNull();
  });
});

describe('npm run check of scorecard and progress', () => {
  let pristine: DefinitionSources;
  beforeAll(async () => {
    pristine = (await loadDefinitionSources(REPO_ROOT)).sources;
  });
  const clone = (): DefinitionSources =>
    new Map([...pristine].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
  const run = (s: DefinitionSources): DefinitionProblem[] => checkDefinitions(s, implementationNames, DEFINITION_RULES);
  const manifestWith = (s: DefinitionSources, key: string) =>
    [...s.keys()].find((f) => f.endsWith('/entity.json') && (s.get(f)!.json as Record<string, unknown>)[key])!;
  const expectProblem = (problems: DefinitionProblem[], file: string, pointer: string, text: RegExp) =>
    expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
      expect.objectContaining({ file, pointer, message: expect.stringMatching(text) }),
    );

  it('names a missing field, an area both entered and derived, an unknown aggregate, filter or measure, and bands out of order', () => {
    const s = clone();
    const file = manifestWith(s, 'scorecard');
    const sc = (s.get(file)!.json as { scorecard: any }).scorecard; // eslint-disable-line @typescript-eslint/no-explicit-any
    const derivedAt = sc.areas.findIndex((a: { derived?: unknown }) => a.derived);
    const enteredAt = sc.areas.findIndex((a: { entered?: unknown }) => a.entered);
    sc.fields.band = '/noSuchField';
    sc.areas[enteredAt].derived = sc.areas[derivedAt].derived;
    sc.areas[derivedAt].derived = {
      ...sc.areas[derivedAt].derived,
      period: 'regionId',
      unit: 'noSuchFilter',
      ratio: ['noSuchMeasure', sc.areas[derivedAt].derived.ratio[1]],
    };
    sc.areas.push({
      ...sc.areas[derivedAt],
      code: 'other',
      derived: { ...sc.areas[derivedAt].derived, aggregate: '/api/nothing/aggregate/none' },
    });
    sc.bands[1].minPercent = 95;
    const problems = run(s);
    expectProblem(problems, file, '/scorecard/fields/band', /does not exist/);
    expectProblem(
      problems,
      file,
      `/scorecard/areas/${enteredAt}`,
      /"entered", "derived" or "answered" \(exactly one of them\)/,
    );
    expectProblem(problems, file, `/scorecard/areas/${derivedAt}/derived/period`, /not a dateRange grid filter/);
    expectProblem(problems, file, `/scorecard/areas/${derivedAt}/derived/unit`, /not a grid filter/);
    expectProblem(problems, file, `/scorecard/areas/${derivedAt}/derived/ratio/0`, /no measure "noSuchMeasure"/);
    expectProblem(problems, file, `/scorecard/areas/${sc.areas.length - 1}/derived/aggregate`, /no manifest declares/);
    expectProblem(problems, file, '/scorecard/bands/1/minPercent', /from the best down/);
  });

  it('names a progress field that is missing or not a number', () => {
    const s = clone();
    const file = manifestWith(s, 'progress');
    const progress = (s.get(file)!.json as { progress: Record<string, string> }).progress;
    progress.done = '/indicator';
    progress.plan = '/noSuchField';
    const problems = run(s);
    expectProblem(problems, file, '/progress/done', /must be of type integer or number/);
    expectProblem(problems, file, '/progress/plan', /does not exist/);
  });
});
