/**
 * `npm run check` on what the pharmacy desk (issue #19) added to the definitions: a list screen's
 * `fixedFilters` name filters of the entity's grid and states of its machine; a notice's
 * `smsTemplate` is an sms notice naming a seeded template of an entity that follows the machine;
 * seeded templates use only their entity's fields as placeholders; `eventByKey` looks the key up by
 * a unique eq filter and sends an event of the machine — each mistake named with file and pointer.
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
  it('names a notice whose stored template is unknown or on the wrong channel', () => {
    const s = clone();
    const file = 'workflows/pharmacy-appeal.machine.json';
    const machine = json(s, file);
    const finish = machine.states.PROCCESS.on.FINISH.notify[0];
    finish.smsTemplate = 'no-such-template';
    machine.states.SEND_TO_COURT.on.FINISH.notify[0] = {
      ...finish,
      channel: 'email',
      smsTemplate: 'pharmacy-appeal-finished',
    };
    const problems = run(s);
    has(
      problems,
      file,
      '/states/PROCCESS/on/FINISH/notify/0/smsTemplate',
      /no seeded SMS template has the code "no-such-template"/,
    );
    has(problems, file, '/states/SEND_TO_COURT/on/FINISH/notify/0/smsTemplate', /for sms notices only/);
  });

  it('names a seeded template placeholder its entity lacks', () => {
    const s = clone();
    const seed = 'schemas/sms-template/seed.json';
    json(s, seed).records[0].text.ru = 'Обращение {{number}}: {{consumer.nickname}}';
    has(
      run(s),
      seed,
      '/records/0/text/ru',
      /placeholder "\{\{consumer\.nickname\}\}" is not a field of pharmacy-appeal/,
    );
  });

  it('names an eventByKey whose filter is not a unique eq filter or whose event the machine lacks', () => {
    const s = clone();
    const file = 'schemas/pharmacy/entity.json';
    json(s, file).eventByKey[0].filter = 'stir';
    json(s, file).eventByKey[0].event = 'APPROVE';
    json(s, file).eventByKey[0].doneStates = ['DONE'];
    const problems = run(s);
    has(problems, file, '/eventByKey/0/filter', /must be in the manifest's "unique"/);
    has(problems, file, '/eventByKey/0/event', /has no event "APPROVE"/);
    has(problems, file, '/eventByKey/0/doneStates/0', /has no state "DONE"/);
  });
});
