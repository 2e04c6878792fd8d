/**
 * `npm run check` on schema versions and migration files (src/definitions/check/migrations.ts):
 * each mistake is named by file, pointer and a plain message.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';

let pristine: DefinitionSources;
beforeAll(async () => {
  pristine = (await loadDefinitionSources(REPO_ROOT)).sources;
});

const DIR = 'schemas/contractor';
const MANIFEST = `${DIR}/entity.json`;
const clone = (): DefinitionSources =>
  new Map([...pristine].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
const run = (s: DefinitionSources): DefinitionProblem[] => checkDefinitions(s, implementationNames, DEFINITION_RULES);
const put = (s: DefinitionSources, file: string, json: unknown) => s.set(file, { path: file, json });
const renamed = (s: DefinitionSources, version = 2) => {
  const manifest = s.get(MANIFEST)!.json as { schemaVersion?: number; keywordFields: string[] };
  manifest.schemaVersion = version;
  manifest.keywordFields = manifest.keywordFields.map((f) => (f === '/director' ? '/directorName' : f));
  const schema = s.get(`${DIR}/schema.json`)!.json as { properties: Record<string, unknown> };
  schema.properties.directorName = schema.properties.director;
  delete schema.properties.director;
};
const rename = { op: 'rename', from: '/director', to: '/directorName' };
const expectProblem = (problems: DefinitionProblem[], file: string, pointer: string, text: RegExp) =>
  expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
    expect.objectContaining({ file, pointer, message: expect.stringMatching(text) }),
  );
const withoutLocaleAndRefs = (problems: DefinitionProblem[]) =>
  problems.filter((p) => p.file.includes('/migrations/') || p.file === MANIFEST);

describe('npm run check: schema versions and migrations', () => {
  it('accepts a schemaVersion with its migration, and the registry reads it', () => {
    const s = clone();
    renamed(s);
    put(s, `${DIR}/migrations/2.json`, { description: 'The director field is now directorName.', steps: [rename] });
    expect(withoutLocaleAndRefs(run(s))).toEqual([]);
    const def = createDefinitionRegistry(s).entities.get('contractor')!;
    expect(def.schemaVersion).toBe(2);
    expect(def.migrations.map((m) => [m.version, m.file])).toEqual([[2, `${DIR}/migrations/2.json`]]);
  });

  it('names a missing migration at the manifest’s schemaVersion', () => {
    const s = clone();
    renamed(s, 3);
    put(s, `${DIR}/migrations/2.json`, { description: 'Rename.', steps: [rename] });
    expectProblem(run(s), MANIFEST, '/schemaVersion', /schemas\/contractor\/migrations\/3\.json is missing/);
  });

  it('names a migration above the schemaVersion and a badly named file', () => {
    const s = clone();
    put(s, `${DIR}/migrations/2.json`, { description: 'Too early.', steps: [{ op: 'remove', path: '/fax' }] });
    put(s, `${DIR}/migrations/two.json`, { description: 'Bad name.', steps: [{ op: 'remove', path: '/fax' }] });
    const problems = run(s);
    expectProblem(problems, `${DIR}/migrations/2.json`, '', /does not fit the manifest's schemaVersion 1/);
    expectProblem(problems, `${DIR}/migrations/two.json`, '', /named by the version .* "2\.json"/);
  });

  it('names a step of the wrong shape by its pointer', () => {
    const s = clone();
    renamed(s);
    put(s, `${DIR}/migrations/2.json`, { description: 'Rename.', steps: [{ op: 'rename', from: '/director' }] });
    expect(run(s).some((p) => p.file === `${DIR}/migrations/2.json` && p.pointer.startsWith('/steps/0'))).toBe(true);
  });

  it('names a missing script module and a script without covers', () => {
    const s = clone();
    renamed(s);
    put(s, `${DIR}/migrations/2.json`, { description: 'By script.', steps: [{ op: 'script', module: './2.ts' }] });
    const problems = run(s);
    expectProblem(
      problems,
      `${DIR}/migrations/2.json`,
      '/steps/0/module',
      /schemas\/contractor\/migrations\/2\.ts does not exist/,
    );
    expectProblem(problems, `${DIR}/migrations/2.json`, '/covers', /lists the stored fields the script handles/);
    s.set(`${DIR}/migrations/2.ts`, { path: `${DIR}/migrations/2.ts`, json: null, script: true });
    (s.get(`${DIR}/migrations/2.json`)!.json as Record<string, unknown>).covers = ['/director'];
    expect(withoutLocaleAndRefs(run(s))).toEqual([]);
  });

  it('names a field the newest migration writes that the schema does not have', () => {
    const s = clone();
    renamed(s);
    put(s, `${DIR}/migrations/2.json`, {
      description: 'Rename.',
      steps: [{ op: 'rename', from: '/director', to: '/directorNmae' }],
    });
    expectProblem(run(s), `${DIR}/migrations/2.json`, '/steps/0/to', /"\/directorNmae" does not exist.*directorName/);
  });
});
