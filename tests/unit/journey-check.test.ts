/**
 * `npm run check` on the citizen's journey options (issue #17): the confirmation page's texts,
 * tracking screen and pre-filled fields, the cards presentation's fields and filters, and the
 * reference-number parameter of a public lookup — each mistake named with file and pointer.
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

describe("check of the citizen's journey options", () => {
  it('passes the real definitions', () => {
    expect(run(clone())).toEqual([]);
  });

  it('names a missing text, tracking screen or field of the confirmation page, and wrong card options', () => {
    const s = clone();
    const confirmation = json(s, 'screens/murojaat.json').options.submit.confirmation;
    confirmation.nextKeys.push('screen.murojaat.sent.noSuchText');
    confirmation.track.screen = 'no-such-screen';
    confirmation.track.contact.phone = '/noSuchField';
    const card = json(s, 'screens/my-appeals.json').options.card;
    card.titleField = '/noSuchTitle';
    card.filters = ['keyword', 'regionId'];
    const problems = run(s);
    has(problems, 'screens/murojaat.json', '/options/submit/confirmation/nextKeys/3', /noSuchText/);
    has(problems, 'screens/murojaat.json', '/options/submit/confirmation/track/screen', /does not exist/);
    has(problems, 'screens/murojaat.json', '/options/submit/confirmation/track/contact/phone', /no field/);
    has(problems, 'screens/my-appeals.json', '/options/card/titleField', /no field/);
    has(
      problems,
      'screens/my-appeals.json',
      '/options/card/filters/1',
      /not the grid's keyword filter or its status filter/,
    );
  });

  it('names a lookup parameter that is both a field and the reference number, and a needsOneOf that is not optional', () => {
    const s = clone();
    const status = json(s, 'schemas/appeal/entity.json').publicLookups.find(
      (l: { name: string }) => l.name === 'status',
    );
    status.by[0].field = '/phone';
    delete status.by[1].optional;
    const problems = run(s);
    has(problems, 'schemas/appeal/entity.json', '/publicLookups/1/by/0', /keep one/);
    has(problems, 'schemas/appeal/entity.json', '/publicLookups/1/needsOneOf/0', /must be "optional": true/);
  });
});
