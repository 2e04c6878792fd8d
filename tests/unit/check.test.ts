import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';

/** The repository's real definitions, deep-copied so each test can break one thing. */
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
const expectProblem = (problems: DefinitionProblem[], file: string, pointer: string, text: RegExp) => {
  expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
    expect.objectContaining({ file, pointer, message: expect.stringMatching(text) }),
  );
};
/** The first entity folder (any will do; the rules are the same for all). */
const anEntity = (s: DefinitionSources): string =>
  [...s.keys()].find((f) => /^schemas\/[a-z][^/]*\/entity\.json$/.test(f))!.split('/')[1]!;
const entityWithWizard = (s: DefinitionSources): string | undefined =>
  [...s.keys()]
    .filter((f) => f.endsWith('/ui.json'))
    .find((f) => json(s, f).wizard && !json(s, f).wizard.partial)
    ?.split('/')[1];

describe('npm run check', () => {
  it('checks remote sources (an integration method, its parameters, eq filters) and download stamps (a text field, recipients declared)', () => {
    const s = clone();
    const withRemote = [...s.keys()].find((f) => f.endsWith('/entity.json') && json(s, f).remoteSource)!;
    json(s, withRemote).remoteSource.params.nonsense = 'x';
    const withRemote2 = [...s.keys()].filter((f) => f.endsWith('/entity.json') && json(s, f).remoteSource)[1]!;
    json(s, withRemote2).remoteSource.integration = 'soliq/no-such-method';
    const withStamp = [...s.keys()].find((f) => f.endsWith('/entity.json') && json(s, f).stampOnDownload)!;
    json(s, withStamp).stampOnDownload = '/noSuchField';
    delete json(s, withStamp).scope.recipients;
    const problems = checkDefinitions(s, implementationNames, DEFINITION_RULES);
    expectProblem(problems, withRemote2, '/remoteSource/integration', /soliq\/no-such-method.json does not exist/);
    expectProblem(problems, withRemote, '/remoteSource/params/nonsense', /must be an eq filter/);
    expectProblem(problems, withRemote, '/remoteSource/params/nonsense', /not a parameter of soliq/);
    expectProblem(problems, withStamp, '/stampOnDownload', /does not exist/);
    expectProblem(problems, withStamp, '/stampOnDownload', /needs scope.recipients/);
  });

  it('checks the integration definitions and registry imports: titles, fixtures against the answer, roles, rows, key, codes', () => {
    const s = clone();
    const method = 'schemas/_integrations/soliq/yuridik-info.json';
    delete json(s, method).params.properties.inn.titles.ru;
    json(s, method).roles.push('citizen');
    json(s, 'schemas/_integrations/soliq/fixtures/yuridik-info.json').cases[0].body.name = 42;
    json(s, 'schemas/_integrations/soliq/fixtures/get-info.json').cases.push({ params: { lang: 'ru' }, body: {} });
    const stat = 'schemas/stat-price/entity.json';
    json(s, stat).registryImport.fields['/avgPrice'] = 'noSuchColumn';
    json(s, stat).registryImport.fields['/date'] = { from: 'date', code: true };
    json(s, stat).registryImport.key.push('/districtId');
    const problems = checkDefinitions(s, implementationNames, DEFINITION_RULES);
    expectProblem(problems, method, '/params/properties/inn', /needs titles in ru/);
    expectProblem(problems, method, '/roles/5', /lacks "call Integration"/);
    expectProblem(
      problems,
      'schemas/_integrations/soliq/fixtures/yuridik-info.json',
      '/cases/0/body/name',
      /answer schema/,
    );
    expectProblem(
      problems,
      'schemas/_integrations/soliq/fixtures/get-info.json',
      '/cases/3/params',
      /not a valid query/,
    );
    expectProblem(
      problems,
      stat,
      '/registryImport/fields/~1avgPrice',
      /not a field of iqtisodiyot-vazirlik\/get-information-1's rows|row field "noSuchColumn"/,
    );
    expectProblem(problems, stat, '/registryImport/fields/~1date', /refers to no reference list/);
    expectProblem(problems, stat, '/registryImport/key/3', /not among the imported fields/);
  });

  it('checks seeds: records valid against the schema, "$seed" naming an earlier record, the key unique', () => {
    const s = clone();
    // A seed file whose records name earlier ones (a tree of units), not a flat sample file.
    const manifestFile = [...s.keys()].find(
      (f) =>
        f.endsWith('/entity.json') &&
        json(s, f).seed?.file &&
        JSON.stringify(json(s, `${f.slice(0, -'entity.json'.length)}${json(s, f).seed.file}`)).includes('"$seed"'),
    )!;
    const dir = manifestFile.slice(0, -'/entity.json'.length);
    const seedFile = `${dir}/${json(s, manifestFile).seed.file}`;
    const records = json(s, seedFile).records;
    const placeholderAt = records.findIndex((r: Record<string, unknown>) =>
      Object.values(r).some((v) => v && typeof v === 'object' && '$seed' in v),
    );
    const field = Object.keys(records[placeholderAt]).find((k) => records[placeholderAt][k]?.$seed)!;
    records[placeholderAt][field] = { $seed: 'NO-SUCH-KEY' };
    records[0].unknownField = 1;
    const problems = run(s);
    expectProblem(problems, seedFile, `/records/${placeholderAt}/${field}`, /no earlier record/);
    expectProblem(problems, seedFile, '/records/0', /additional properties/);
  });

  it('needs a seed key for "missing" (and for "$seed" references), not for a sample seed of an empty table', () => {
    const s = clone();
    const samples = [...s.keys()].find((f) => f.endsWith('/entity.json') && json(s, f).seed?.samples === true)!;
    expect(json(s, samples).seed.key).toBeUndefined();
    json(s, samples).seed.when = 'missing';
    const problems = run(s);
    expectProblem(problems, samples, '/seed/key', /needs a key/);
  });

  it('rejects an entityRef to an entity that does not exist, and a tree screen of an entity without a tree', () => {
    const s = clone();
    const schemaFile = [...s.keys()].find(
      (f) => f.endsWith('/schema.json') && JSON.stringify(json(s, f)).includes('"entityRef"'),
    )!;
    const schema = json(s, schemaFile);
    const name = Object.keys(schema.properties).find((k) => schema.properties[k].entityRef)!;
    schema.properties[name].entityRef.entity = 'no-such-entity';
    const treeScreen = [...s.keys()].find((f) => f.startsWith('screens/') && json(s, f).kind === 'tree')!;
    const other = [...s.keys()].find((f) => f.endsWith('/entity.json') && !json(s, f).tree)!;
    json(s, treeScreen).entity = json(s, other).id;
    const problems = run(s);
    expectProblem(problems, schemaFile, `/properties/${name}/entityRef/entity`, /does not exist/);
    expectProblem(problems, treeScreen, '/kind', /has no tree/);
  });

  it('checks a questionnaire manifest: its fields by type, the responses entity and its parent field', () => {
    const s = clone();
    const manifestFile = [...s.keys()].find((f) => f.endsWith('/entity.json') && json(s, f).questionnaire)!;
    const q = json(s, manifestFile).questionnaire;
    q.openToField = q.questionsField;
    q.publicFields.push('/noSuchField');
    q.responses.entity = 'no-such-entity';
    const problems = run(s);
    expectProblem(problems, manifestFile, '/questionnaire/openToField', /must be of type string/);
    expectProblem(problems, manifestFile, `/questionnaire/publicFields/${q.publicFields.length - 1}`, /does not exist/);
    expectProblem(problems, manifestFile, '/questionnaire/responses/entity', /does not exist/);
  });

  it('accepts the repository as it is', () => {
    expect(run(clone())).toEqual([]);
  });

  it('rejects a manifest that breaks its meta-schema', () => {
    const s = clone();
    const e = anEntity(s);
    delete json(s, `schemas/${e}/entity.json`).base;
    expectProblem(run(s), `schemas/${e}/entity.json`, '/base', /required/);
  });

  it('rejects a record schema that declares a server-owned field', () => {
    const s = clone();
    const e = anEntity(s);
    json(s, `schemas/${e}/schema.json`).properties.status = { type: 'string', title: 'common.field.status' };
    expect(run(s).some((p) => p.file === `schemas/${e}/schema.json` && p.pointer.startsWith('/properties'))).toBe(true);
  });

  it('rejects a misspelt schema keyword (strict compile)', () => {
    const s = clone();
    const e = anEntity(s);
    const schema = json(s, `schemas/${e}/schema.json`);
    const first = Object.keys(schema.properties)[0]!;
    schema.properties[first].maxLenght = 5;
    expectProblem(run(s), `schemas/${e}/schema.json`, '', /maxLenght/);
  });

  it('rejects a grid column naming a field the schema lacks', () => {
    const s = clone();
    const e = anEntity(s);
    json(s, `schemas/${e}/grid.json`).columns[0].field = '/noSuchField';
    expectProblem(run(s), `schemas/${e}/grid.json`, '/columns/0/field', /"\/noSuchField" does not exist/);
  });

  it('rejects a filter on a field the schema lacks', () => {
    const s = clone();
    const e = anEntity(s);
    json(s, `schemas/${e}/grid.json`).filters.push({ name: 'ghost', kind: 'eq', field: '/ghost' });
    const i = json(s, `schemas/${e}/grid.json`).filters.length - 1;
    expectProblem(run(s), `schemas/${e}/grid.json`, `/filters/${i}/field`, /does not exist/);
  });

  it('refuses more than four filters in the list bar (keyword and primary), naming the first one too many', () => {
    const s = clone();
    const file = 'schemas/appeal/grid.json';
    const filters = json(s, file).filters as Array<{ name: string; primary?: boolean }>;
    for (const f of filters) f.primary = true;
    expectProblem(run(s), file, '/filters/4/primary', /at most 4 filters are shown in the list's bar/);
  });

  it('rejects a ui field the schema lacks', () => {
    const s = clone();
    const e = anEntity(s);
    json(s, `schemas/${e}/ui.json`).uiSchema.notAField = { 'ui:widget': 'text' };
    expectProblem(run(s), `schemas/${e}/ui.json`, '/uiSchema/notAField', /does not exist/);
  });

  it('rejects a wizard that leaves a field out of every step', () => {
    const s = clone();
    const e = entityWithWizard(s);
    expect(e, 'an entity with a wizard exists').toBeDefined();
    const steps = json(s, `schemas/${e}/ui.json`).wizard.steps;
    const dropped = steps[0].fields.shift();
    if (!steps[0].fields.length) steps[0].fields.push(steps[1].fields.shift());
    expectProblem(run(s), `schemas/${e}/ui.json`, '/wizard/steps', new RegExp(`"${dropped}" is in no wizard step`));
  });

  it('rejects a manifest whose schema, grid or ui file is missing', () => {
    const s = clone();
    const e = anEntity(s);
    s.delete(`schemas/${e}/grid.json`);
    expectProblem(run(s), `schemas/${e}/entity.json`, '/grid', /does not exist/);
  });

  it('rejects a manifest naming a machine that does not exist', () => {
    const s = clone();
    const e = anEntity(s);
    const m = json(s, `schemas/${e}/entity.json`);
    delete m.initialStatus;
    m.workflow = 'no-such-machine';
    expectProblem(run(s), `schemas/${e}/entity.json`, '/workflow', /no-such-machine\.machine\.json does not exist/);
  });

  it('rejects a machine guard or action missing from the implementation registry', () => {
    const s = clone();
    const m = json(s, 'workflows/tender.machine.json');
    m.states.PROCCESS.on.FINISH.guard = 'isFullMoon';
    m.states.PROCCESS.on.FINISH.actions = ['launchRockets'];
    const problems = run(s);
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      '/states/PROCCESS/on/FINISH/guard',
      /"isFullMoon" is not in the implementation registry/,
    );
    expectProblem(problems, 'workflows/tender.machine.json', '/states/PROCCESS/on/FINISH/actions/0', /"launchRockets"/);
  });

  it('rejects a machine transition to a state that does not exist', () => {
    const s = clone();
    json(s, 'workflows/tender.machine.json').states.FINISHED.on.REOPEN.target = 'LIMBO';
    expectProblem(
      run(s),
      'workflows/tender.machine.json',
      '/states/FINISHED/on/REOPEN/target',
      /"LIMBO" does not exist/,
    );
  });

  it('rejects a machine event that no role may send', () => {
    const s = clone();
    const access = json(s, 'schemas/_access/access.json');
    for (const role of access.roles) role.permissions = role.permissions.filter((p: string) => p !== 'FINISH Tender');
    expectProblem(
      run(s),
      'schemas/tender/entity.json',
      '/workflow',
      /no role .* may send FINISH \(permission "FINISH Tender"\)/,
    );
  });

  it('rejects a deadline whose event the state lacks or whose field is not a date, and exempts deadline events from role grants', () => {
    const s = clone();
    const m = json(s, 'workflows/tender.machine.json');
    m.states.PROCCESS.deadline = { field: '/subject', event: 'EXPIRE', description: 'A broken deadline.' };
    m.states.FINISHED.deadline = { field: '/purchaseDate', event: 'REOPEN', description: 'Reopened by the sweep.' };
    for (const role of json(s, 'schemas/_access/access.json').roles)
      role.permissions = role.permissions.filter((p: string) => p !== 'REOPEN Tender');
    const problems = run(s);
    expectProblem(problems, 'workflows/tender.machine.json', '/states/PROCCESS/deadline/event', /no event "EXPIRE"/);
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      '/states/PROCCESS/deadline/field',
      /"\/subject" .* must have format date or date-time/,
    );
    expect(problems.filter((p) => /REOPEN/.test(p.message))).toEqual([]);
    // A deadline event that needs input could never be sent by the sweep.
    const withPayload = clone();
    const t = json(withPayload, 'workflows/tender.machine.json');
    t.states.FINISHED.deadline = { field: '/purchaseDate', event: 'REOPEN', description: 'Reopened by the sweep.' };
    t.states.FINISHED.on.REOPEN.payload = {
      type: 'object',
      additionalProperties: false,
      required: ['reason'],
      properties: { reason: { type: 'string', title: 'workflow.payload.reason' } },
    };
    expectProblem(
      run(withPayload),
      'workflows/tender.machine.json',
      '/states/FINISHED/deadline/event',
      /requires a payload, but the sweep sends none/,
    );
  });

  it('rejects a payload check that is not in the registry, judges no payload date, compares with a record field that is no date, or names a missing message', () => {
    const s = clone();
    const reopen = json(s, 'workflows/tender.machine.json').states.FINISHED.on.REOPEN;
    reopen.payload = {
      type: 'object',
      additionalProperties: false,
      required: ['date', 'reason'],
      properties: {
        date: { type: 'string', format: 'date', title: 'workflow.payload.reopenDate' },
        reason: { type: 'string', title: 'workflow.payload.reason' },
      },
    };
    reopen.checks = [
      { type: 'dateIsLucky', params: { field: '/date' } },
      { type: 'dateNotFuture', params: { field: '/reason' } },
      {
        type: 'dateNotBeforeField',
        params: { field: '/date', than: '/subject', message: 'workflow.check.noSuchMessage' },
      },
      { type: 'dateNotBeforeField', params: { field: '/date', than: '/createdAt' } },
    ];
    const problems = run(s);
    const at = '/states/FINISHED/on/REOPEN/checks';
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      `${at}/0`,
      /check "dateIsLucky" is not in the implementation registry/,
    );
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      `${at}/1/params/field`,
      /a date or date-time field of the transition's payload/,
    );
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      `${at}/2/params/than`,
      /"\/subject" .* must have format date or date-time/,
    );
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      `${at}/2/params/message`,
      /"workflow\.check\.noSuchMessage" is missing/,
    );
    // A system field (the record's creation time) is a date-time every record has.
    expect(problems.filter((p) => p.pointer.startsWith(`${at}/3`))).toEqual([]);
  });

  it('rejects a notice whose contact field no follower has, whose template is missing, or whose channel is unknown', () => {
    const s = clone();
    const m = json(s, 'workflows/tender.machine.json');
    m.states.PROCCESS.on.FINISH.notify = [
      { channel: 'sms', to: '/noSuchPhone', template: 'workflow.notice.noSuchTemplate' },
    ];
    const problems = run(s);
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      '/states/PROCCESS/on/FINISH/notify/0/to',
      /"\/noSuchPhone" exists in no entity following the machine/,
    );
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      '/states/PROCCESS/on/FINISH/notify/0/template',
      /"workflow\.notice\.noSuchTemplate\.text" is missing/,
    );
    // An unknown channel breaks the meta-schema.
    const other = clone();
    json(other, 'workflows/tender.machine.json').states.FINISHED.on.REOPEN.notify = [
      { channel: 'fax', to: '/subject', template: 'workflow.notice.appealAccepted' },
    ];
    expect(
      run(other).some(
        (p) =>
          p.file === 'workflows/tender.machine.json' && p.pointer.startsWith('/states/FINISHED/on/REOPEN/notify/0'),
      ),
    ).toBe(true);
  });

  it('takes an in-app notice only to staff user fields, with its text (no subject) in every language', () => {
    const s = clone();
    const m = json(s, 'workflows/document.machine.json');
    m.states.SEEN.on.ASSIGN_EXECUTOR.notify = [
      { channel: 'inApp', to: '/executorId', template: 'workflow.document.notices.assigned' },
      // An integer that is not a user's (a region), and a text field.
      { channel: 'inApp', to: '/regionId', template: 'workflow.document.notices.assigned' },
      { channel: 'inApp', to: '/sender', template: 'workflow.document.notices.noSuch' },
    ];
    delete json(s, 'workflows/document.i18n.json').uz.workflow.document.notices.returned;
    const problems = run(s).filter((p) => p.file === 'workflows/document.machine.json');
    const at = '/states/SEEN/on/ASSIGN_EXECUTOR/notify';
    expect(problems.filter((p) => p.pointer.startsWith(`${at}/0`))).toEqual([]);
    expectProblem(problems, 'workflows/document.machine.json', `${at}/1/to`, /must hold user ids/);
    expectProblem(problems, 'workflows/document.machine.json', `${at}/2/to`, /must hold user ids/);
    expectProblem(
      problems,
      'workflows/document.machine.json',
      `${at}/2/template`,
      /"workflow\.document\.notices\.noSuch\.text" is missing/,
    );
    // A text missing in one language is named where a notice uses it.
    expect(problems.some((p) => /notices\.returned\.text" is missing/.test(p.message))).toBe(true);
  });

  it('rejects an event payload field without a title key, and a state or event without its labels', () => {
    const s = clone();
    const m = json(s, 'workflows/tender.machine.json');
    m.states.FINISHED.on.REOPEN.payload = {
      type: 'object',
      additionalProperties: false,
      required: ['why'],
      properties: { why: { type: 'string' } },
    };
    m.states.FINISHED.on.ABANDON = { target: 'LIMBO', description: 'Give up.' };
    m.states.LIMBO = { description: 'Given up.', type: 'final' };
    const problems = run(s);
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      '/states/FINISHED/on/REOPEN/payload/properties/why',
      /need a title/,
    );
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      '/states/LIMBO',
      /"workflow\.tender\.states\.LIMBO" is missing/,
    );
    // One label per state: no global `status.<STATE>` is asked for any more.
    expect(problems.some((p) => /"status\.LIMBO"/.test(p.message))).toBe(false);
    expectProblem(
      problems,
      'workflows/tender.machine.json',
      '/states/FINISHED/on/ABANDON',
      /"workflow\.tender\.events\.ABANDON" is missing/,
    );
  });

  it('fails on stale workflow diagrams until npm run docs:workflows rewrites them', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'docs-'));
    const docs = (...args: string[]) =>
      spawnSync(
        process.execPath,
        ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/docs-workflows.ts'), dir, ...args],
        { encoding: 'utf8' },
      );
    try {
      for (const part of ['schemas', 'workflows', 'src/i18n/locales', 'docs/workflows'])
        cpSync(path.join(REPO_ROOT, part), path.join(dir, part), { recursive: true });
      expect(docs('--check').status).toBe(0);
      const file = path.join(dir, 'workflows', 'tender.machine.json');
      const machine = JSON.parse(readFileSync(file, 'utf8'));
      machine.states.FINISHED.on.REOPEN.description = 'Reopen it, changed.';
      writeFileSync(file, JSON.stringify(machine));
      const stale = docs('--check');
      expect(stale.status).toBe(1);
      expect(stale.stderr).toContain('docs/workflows is stale (tender.md)');
      expect(docs().status).toBe(0);
      expect(readFileSync(path.join(dir, 'docs/workflows/tender.md'), 'utf8')).toContain('Reopen it, changed.');
      expect(docs('--check').status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a screen naming an entity that does not exist', () => {
    const s = clone();
    s.set('screens/ghost-list.json', {
      path: 'screens/ghost-list.json',
      json: {
        id: 'ghost-list',
        route: '/ghosts',
        kind: 'list',
        entity: 'ghost',
        titleKey: 'app.title',
        permission: 'public',
      },
    });
    expectProblem(run(s), 'screens/ghost-list.json', '/entity', /entity "ghost" does not exist/);
  });

  it('checks record actions: a detail screen, fromRecord fields of the entity, every value the call sends known, titled form fields', () => {
    const s = clone();
    const file = [...s.keys()].find((f) => f.startsWith('screens/') && json(s, f).options?.recordActions)!;
    const action = json(s, file).options.recordActions[0];
    action.fromRecord = { ...action.fromRecord, other: '/noSuchField' };
    action.endpoint.body = [...action.endpoint.body, 'nobodyKnows'];
    action.schema.properties.extra = { type: 'string', title: 'no.such.key' };
    const problems = run(s);
    expectProblem(problems, file, '/options/recordActions/0/fromRecord/other', /has no field \/noSuchField/);
    expectProblem(problems, file, '/options/recordActions/0/endpoint', /"nobodyKnows" is neither a field/);
    expect(problems.some((p) => p.file === file && /no\.such\.key/.test(p.message))).toBe(true);
    json(s, file).kind = 'list';
    expectProblem(run(s), file, '/options/recordActions/0', /need a detail screen/);
  });

  it('checks key facts: each a field of the entity, on a detail screen', () => {
    const s = clone();
    const file = [...s.keys()].find((f) => f.startsWith('screens/') && json(s, f).options?.keyFacts)!;
    expect(run(s).filter((p) => p.file === file)).toEqual([]);
    json(s, file).options.keyFacts = [...json(s, file).options.keyFacts, '/noSuchDeadline'];
    const at = `/options/keyFacts/${json(s, file).options.keyFacts.length - 1}`;
    expectProblem(run(s), file, at, /has no field \/noSuchDeadline/);
    json(s, file).kind = 'list';
    expectProblem(run(s), file, '/options/keyFacts/0', /keyFacts need a detail screen/);
  });

  it('requires a plain sentence for every state of the machine behind a plainStatus screen', () => {
    const s = clone();
    const file = [...s.keys()].find((f) => f.startsWith('screens/') && json(s, f).options?.plainStatus)!;
    const machine = json(s, `schemas/${json(s, file).entity}/entity.json`).workflow as string;
    const state = Object.keys(json(s, `workflows/${machine}.machine.json`).states)[0]!;
    delete json(s, `workflows/${machine}.i18n.json`).ru.workflow[machine].plain[state];
    expectProblem(
      run(s),
      file,
      '/options/plainStatus',
      new RegExp(`"workflow\\.${machine}\\.plain\\.${state}" is missing in ru`),
    );
    // On a screen whose entity has no machine, the option itself is refused.
    const plain = clone();
    const list = [...plain.keys()].find(
      (f) =>
        f.startsWith('screens/') &&
        json(plain, f).kind === 'detail' &&
        !json(plain, `schemas/${json(plain, f).entity}/entity.json`).workflow,
    )!;
    json(plain, list).options = { plainStatus: true };
    expectProblem(run(plain), list, '/options/plainStatus', /needs a detail screen of an entity with a workflow/);
  });

  it("rejects an i18n key missing from one locale, naming where it is used and the entity's file where it is missing", () => {
    const s = clone();
    const e = anEntity(s);
    const key = json(s, `schemas/${e}/entity.json`).titleKey as string;
    const parts = key.split('.');
    let node = json(s, `schemas/${e}/i18n.json`).en;
    for (const p of parts.slice(0, -1)) node = node[p];
    delete node[parts.at(-1)!];
    const problems = run(s);
    expectProblem(
      problems,
      `schemas/${e}/entity.json`,
      '/titleKey',
      new RegExp(`"${key.replace(/\./g, '\\.')}" is missing in en \\(write it in schemas/${e}/i18n\\.json#/en/`),
    );
    expectProblem(problems, `schemas/${e}/i18n.json`, `/en/${parts.join('/')}`, /exists in other locales but not here/);
  });

  it('asks an entity without a machine whose list shows the status for the label of the status its records keep', () => {
    const s = clone();
    const e = [...s.keys()]
      .map((f) => /^schemas\/([^_/][^/]*)\/grid\.json$/.exec(f)?.[1])
      .find(
        (id) =>
          id &&
          !json(s, `schemas/${id}/entity.json`).workflow &&
          json(s, `schemas/${id}/grid.json`).columns.some((c: { field: string }) => c.field === '/status'),
      )!;
    const state = (json(s, `schemas/${e}/entity.json`).initialStatus as string | undefined) ?? 'CREATED';
    for (const l of ['en', 'ru', 'uz', 'uzCyrillic']) delete json(s, `schemas/${e}/i18n.json`)[l].entity[e].states;
    const column = json(s, `schemas/${e}/grid.json`).columns.findIndex((c: { field: string }) => c.field === '/status');
    expectProblem(
      run(s),
      `schemas/${e}/grid.json`,
      `/columns/${column}`,
      new RegExp(`"entity\\.${e}\\.states\\.${state}" is missing in uz, uzCyrillic, ru, en`),
    );
  });

  it("merges the entities' and machines' texts with the shell's: a key written twice names both files", () => {
    const s = clone();
    const e = anEntity(s);
    const title = json(s, `schemas/${e}/i18n.json`).ru.entity[e].title as string;
    json(s, 'src/i18n/locales/ru.json').entity = { [e]: { title } };
    expectProblem(
      run(s),
      `schemas/${e}/i18n.json`,
      `/ru/entity/${e}/title`,
      new RegExp(`"entity\\.${e}\\.title" is defined twice: here and in src/i18n/locales/ru\\.json#/entity/${e}/title`),
    );
  });

  it("rejects a key in an entity's or a machine's file outside its own namespaces, and a file without a language", () => {
    const s = clone();
    const e = anEntity(s);
    const other = [...s.keys()]
      .map((f) => /^schemas\/([^_/][^/]*)\/entity\.json$/.exec(f)?.[1])
      .find((x) => x && x !== e)!;
    for (const l of ['en', 'ru', 'uz', 'uzCyrillic'])
      json(s, `schemas/${e}/i18n.json`)[l].entity[other] = { note: 'x' };
    json(s, 'workflows/appeal.i18n.json').en.engine = { extra: 'x' };
    delete json(s, 'workflows/appeal.i18n.json').uz;
    const problems = run(s);
    expectProblem(
      problems,
      `schemas/${e}/i18n.json`,
      `/en/entity/${other}/note`,
      new RegExp(
        `does not belong here: this file holds only entity\\.${e}\\.\\* .*write it in schemas/${other}/i18n\\.json`,
      ),
    );
    expectProblem(problems, 'workflows/appeal.i18n.json', '/en/engine/extra', /holds only workflow\.appeal\.\*/);
    expectProblem(problems, 'workflows/appeal.i18n.json', '', /the uz texts are missing/);
    // The language missing as a whole is one problem, not one per key.
    expect(problems.filter((p) => p.file === 'workflows/appeal.i18n.json' && p.pointer.startsWith('/uz/'))).toEqual([]);
  });

  it("rejects an unknown ui:widget (rjsf would silently fall back), in an entity form and in a screen form, naming the registry's widgets", () => {
    const s = clone();
    const e = anEntity(s);
    const ui = json(s, `schemas/${e}/ui.json`).uiSchema;
    const field = Object.keys(json(s, `schemas/${e}/schema.json`).properties)[0]!;
    ui[field] = { ...ui[field], 'ui:widget': 'textarae' };
    const screen = [...s.keys()].find((f) => f.startsWith('screens/') && json(s, f).options?.uiSchema)!;
    const screenUi = json(s, screen).options.uiSchema;
    screenUi.someField = { 'ui:options': { widget: 'fancy' } };
    const problems = run(s);
    expectProblem(
      problems,
      `schemas/${e}/ui.json`,
      `/uiSchema/${field}/ui:widget`,
      /ui:widget "textarae" is not a widget of the registry.*did you mean "textarea"\?.*Allowed: .*\bmoney\b/,
    );
    expectProblem(
      problems,
      screen,
      '/options/uiSchema/someField/ui:options/widget',
      /ui:widget "fancy" is not a widget of the registry [^;]*; Allowed: .*\bstir\b/,
    );
    // A registered name, one of rjsf's short names and one of its component names all pass.
    const valid = clone();
    json(valid, `schemas/${e}/ui.json`).uiSchema[field] = { 'ui:widget': 'money' };
    json(valid, screen).options.uiSchema.someField = {
      'ui:widget': 'password',
      'ui:options': { widget: 'TextWidget' },
    };
    expect(run(valid).filter((p) => /ui:widget/.test(p.message))).toEqual([]);
  });

  it('rejects an unknown menu icon (the shell would show the default one), naming the icons', () => {
    const s = clone();
    const file = [...s.keys()].find((f) => f.startsWith('screens/') && json(s, f).menu?.icon === 'Gavel')!;
    json(s, file).menu.icon = 'Gavl';
    const other = [...s.keys()].find((f) => f.startsWith('screens/') && f !== file && json(s, f).menu)!;
    json(s, other).menu.icon = 'Rocket';
    const problems = run(s);
    expectProblem(
      problems,
      file,
      '/menu/icon',
      /menu icon "Gavl" is not an icon of the shell.*did you mean "Gavel"\?.*Allowed: .*\bHome\b/,
    );
    expectProblem(
      problems,
      other,
      '/menu/icon',
      /menu icon "Rocket" is not an icon of the shell [^;]*; Allowed: Alert, ArrowSync, BoxMultiple, Building, Calendar, /,
    );
  });

  it('rejects a reference to a list that does not exist', () => {
    const s = clone();
    const e = anEntity(s);
    const schema = json(s, `schemas/${e}/schema.json`);
    schema.properties.extraRef = { type: 'integer', title: 'app.title', reference: { list: 'planet' } };
    expectProblem(run(s), `schemas/${e}/schema.json`, '/properties/extraRef/reference/list', /"planet" does not exist/);
  });

  it('rejects an open dataset over a staff-only entity, a column that is not a scalar field, and a filter its source grid lacks', () => {
    const s = clone();
    const staffOnly = [...s.keys()].find(
      (f) => /^schemas\/[a-z][^/]*\/entity\.json$/.test(f) && !json(s, f).publicRead,
    )!;
    const file = [...s.keys()].find((f) => f.startsWith('schemas/_opendata/'))!;
    json(s, file).entity = json(s, staffOnly).id;
    const other = [...s.keys()].filter((f) => f.startsWith('schemas/_opendata/'))[1]!;
    json(s, other).filters = { colour: 'red' };
    json(s, other).fields.push({ field: '/nothing', name: 'nothing' });
    const problems = run(s);
    expectProblem(problems, file, '/entity', /is not a public registry/);
    expectProblem(problems, other, '/filters/colour', /is not a filter of/);
    expectProblem(problems, other, `/fields/${json(s, other).fields.length - 1}/field`, /is not a scalar field/);
  });

  it('rejects duplicate ids in a reference list', () => {
    const s = clone();
    const regions = json(s, 'schemas/_reference/region.json');
    regions.items[1].id = regions.items[0].id;
    expectProblem(run(s), 'schemas/_reference/region.json', '/items/1/id', /duplicate id/);
  });

  it('checks edit rules: every state of the machine governed, states, fields, field sets and who existing', () => {
    const s = clone();
    // An entity whose machine has a state named on its own (not only "*").
    const manifestFile = [...s.keys()].find(
      (f) => f.endsWith('/entity.json') && json(s, f).workflow && json(s, f).id === 'appeal',
    )!;
    const dir = manifestFile.slice(0, -'/entity.json'.length);
    const editFile = `${dir}/edit.json`;
    const rules = json(s, editFile);
    const machine = json(s, `workflows/${json(s, manifestFile).workflow}.machine.json`);
    const governed = Object.keys(rules.states).find((st) => st !== '*' && machine.states[st]?.on)!;
    delete rules.states[governed];
    rules.states.NO_SUCH_STATE = { update: 'none' };
    const [firstSet] = Object.keys(rules.fieldSets);
    rules.fieldSets[firstSet!].push('/noSuchField');
    const someRules = Object.values(rules.states).find((v: any) => Array.isArray(v.update)) as any;
    someRules.update.push({ who: ['role:no-such-role', 'assigned:/noSuchField'], fields: ['@noSuchSet', '/id'] });
    someRules.update.push({ who: 'recipient', fields: 'all' });
    rules.fieldSets.unused = ['/content'];
    rules.replaceableFiles = ['/content', '/noSuchFile'];
    // An entity without a machine: its one rule set is "*".
    const plainManifest = [...s.keys()].find((f) => f.endsWith('/entity.json') && !json(s, f).workflow)!;
    const plainEdit = `${plainManifest.slice(0, -'/entity.json'.length)}/edit.json`;
    json(s, plainEdit).states = { CREATED: { update: 'none' } };
    const problems = run(s);
    expectProblem(problems, editFile, '/states', new RegExp(`no rule for the state\\(s\\) ${governed}`));
    expectProblem(problems, editFile, '/states/NO_SUCH_STATE', /is not a state of workflows/);
    expectProblem(
      problems,
      editFile,
      `/fieldSets/${firstSet}/${rules.fieldSets[firstSet!].length - 1}`,
      /field "\/noSuchField" does not exist/,
    );
    const at = (i: number) =>
      `/states/${Object.keys(rules.states).find((k) => rules.states[k] === someRules)}/update/${i}`;
    const n = someRules.update.length;
    expectProblem(problems, editFile, `${at(n - 2)}/who/0`, /role "no-such-role" is not a role/);
    expectProblem(problems, editFile, `${at(n - 2)}/who/1`, /field "\/noSuchField" does not exist/);
    expectProblem(problems, editFile, `${at(n - 2)}/fields/0`, /field set "@noSuchSet" is not declared/);
    expectProblem(problems, editFile, `${at(n - 2)}/fields/1`, /server-owned field/);
    expectProblem(problems, editFile, `${at(n - 1)}/who`, /needs scope.recipients/);
    expectProblem(problems, editFile, '/fieldSets/unused', /used by no rule/);
    expectProblem(problems, editFile, '/replaceableFiles/0', /is not a file field/);
    expectProblem(problems, editFile, '/replaceableFiles/1', /does not exist/);
    expectProblem(problems, plainEdit, '/states/CREATED', /no machine: its one rule set is "\*"/);
    expectProblem(problems, plainEdit, '/states', /needs its rule set under "\*"/);
  });

  it('requires edit rules of every entity', () => {
    const s = clone();
    const e = anEntity(s);
    delete json(s, `schemas/${e}/entity.json`).edit;
    s.delete(`schemas/${e}/edit.json`);
    expectProblem(run(s), `schemas/${e}/entity.json`, '/edit', /required property/);
  });

  it('exits non-zero and prints file and pointer for a broken tree (also for invalid JSON)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'check-'));
    try {
      for (const part of ['schemas', 'workflows', 'src/i18n/locales'])
        cpSync(path.join(REPO_ROOT, part), path.join(dir, part), { recursive: true });
      const e = anEntity(pristine);
      const gridFile = path.join(dir, 'schemas', e, 'grid.json');
      const grid = JSON.parse(readFileSync(gridFile, 'utf8'));
      grid.columns[0].field = '/nowhere';
      writeFileSync(gridFile, JSON.stringify(grid));
      writeFileSync(path.join(dir, 'workflows', 'broken.machine.json'), '{ not json');
      writeFileSync(path.join(dir, 'schemas', e, 'i18n.json'), '{\n  "en": {\n    entity: 1 }\n}');
      const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/check.ts'), dir], {
        encoding: 'utf8',
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`schemas/${e}/grid.json#/columns/0/field: field "/nowhere" does not exist`);
      expect(result.stderr).toContain('workflows/broken.machine.json#/: not valid JSON');
      expect(result.stderr).toContain(`schemas/${e}/i18n.json#/: not valid JSON at line 3, column 5`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
