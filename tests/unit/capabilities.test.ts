import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  capabilityFragments,
  capabilityNames,
  CAPABILITY_PARTS,
  composeEntityMetaSchema,
  declaring,
  ENTITY_META_BASE_FILE,
  ENTITY_META_FILE,
  loadCapabilityChecks,
  loadCapabilityPlugins,
  metaSchemaText,
  missingParts,
} from '../../src/server/capabilities/registry.ts';
import { CAPABILITY_RULES, DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import type { EntityDefinition } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';

const readJson = (rel: string): Record<string, any> => JSON.parse(readFileSync(path.join(REPO_ROOT, rel), 'utf8'));

describe('manifest capabilities (src/server/capabilities/<key>/)', () => {
  const names = capabilityNames();

  it('are the folders found there, each with its three parts', () => {
    expect(names).toEqual(
      expect.arrayContaining(['aggregates', 'drafts', 'merge', 'publicLookups', 'publicSubmit', 'questionnaire']),
    );
    for (const name of names)
      expect(missingParts(name), `${name} lacks a part of ${CAPABILITY_PARTS.join(', ')}`).toEqual([]);
  });

  it('each add their own key to the composed entity meta-schema, exactly as their fragment declares it', () => {
    const composed = readJson(ENTITY_META_FILE);
    const base = readJson(ENTITY_META_BASE_FILE);
    for (const [name, fragment] of capabilityFragments()) {
      expect(Object.keys(fragment.properties)).toEqual([name]);
      expect(base.properties, `${name} belongs to its fragment, not to the base`).not.toHaveProperty([name]);
      expect(composed.properties[name]).toEqual(fragment.properties[name]);
      for (const [id, definition] of Object.entries(fragment.definitions ?? {}))
        expect(composed.definitions[id]).toEqual(definition);
    }
  });

  it('the meta-schema on disk is the composition of its base and the fragments (npm run codegen)', () => {
    const composed = composeEntityMetaSchema(readJson(ENTITY_META_BASE_FILE), capabilityFragments());
    expect(readFileSync(path.join(REPO_ROOT, ENTITY_META_FILE), 'utf8')).toBe(metaSchemaText(composed));
    expect(Object.keys(composed.properties as object)).toEqual(expect.arrayContaining(names));
  });

  it('refuses a fragment that names another key, or one the base already has', () => {
    const base = readJson(ENTITY_META_BASE_FILE);
    expect(() => composeEntityMetaSchema(base, new Map([['drafts', { properties: { other: {} } }]]))).toThrow(
      /exactly the property "drafts"/,
    );
    expect(() => composeEntityMetaSchema(base, new Map([['scope', { properties: { scope: {} } }]]))).toThrow(
      /already has the property "scope"/,
    );
  });

  it('bring their check rules into npm run check and their plugins into the app', async () => {
    const checks = await loadCapabilityChecks();
    expect(checks).toHaveLength(names.length);
    for (const rule of checks) {
      expect(typeof rule.name).toBe('string');
      expect(DEFINITION_RULES.map((r) => r.name)).toContain(rule.name);
    }
    expect(CAPABILITY_RULES.length).toBe(names.length + 1);
    const plugins = await loadCapabilityPlugins();
    expect(plugins.map((p) => p.name)).toEqual(names);
    for (const { module } of plugins) expect(typeof module.default).toBe('function');
  });

  it('give a plugin only the entities whose manifest declares the key', () => {
    const def = (id: string, manifest: object) => ({ id, manifest }) as unknown as EntityDefinition;
    const entities = [
      def('a', { drafts: true }),
      def('b', { drafts: false }),
      def('c', {}),
      def('d', { drafts: true }),
    ];
    expect(declaring(entities, 'drafts').map((d) => d.id)).toEqual(['a', 'd']);
  });

  it('are found by reading the folder: a new one needs no central file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'capabilities-'));
    try {
      mkdirSync(path.join(dir, 'stamp'));
      writeFileSync(
        path.join(dir, 'stamp', 'schema.json'),
        JSON.stringify({ properties: { stamp: { type: 'boolean' } } }),
      );
      writeFileSync(path.join(dir, 'stamp', 'check.ts'), "export default { name: 'stamp', run() {} };\n");
      writeFileSync(path.join(dir, 'stamp', 'plugin.ts'), 'export default async function stamp() {}\n');
      mkdirSync(path.join(dir, 'half'));
      writeFileSync(
        path.join(dir, 'half', 'schema.json'),
        JSON.stringify({ properties: { half: { type: 'boolean' } } }),
      );
      expect(capabilityNames(dir)).toEqual(['half', 'stamp']);
      expect(missingParts('half', dir)).toEqual(['check.ts', 'plugin.ts']);
      await expect(loadCapabilityChecks(dir)).rejects.toThrow(/capability half .* lacks check\.ts, plugin\.ts/);
      rmSync(path.join(dir, 'half'), { recursive: true });
      expect((await loadCapabilityChecks(dir)).map((r) => r.name)).toEqual(['stamp']);
      const composed = composeEntityMetaSchema(readJson(ENTITY_META_BASE_FILE), capabilityFragments(dir));
      expect((composed.properties as Record<string, unknown>).stamp).toEqual({ type: 'boolean' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the capabilities' npm run check rules", () => {
  let pristine: DefinitionSources;
  const clone = (): DefinitionSources =>
    new Map([...pristine].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
  const json = (s: DefinitionSources, file: string): any => s.get(file)!.json;
  const manifestWith = (s: DefinitionSources, key: string): string =>
    [...s.keys()].find((f) => f.endsWith('/entity.json') && json(s, f)[key])!;
  const expectProblem = (problems: DefinitionProblem[], file: string, pointer: string, text: RegExp) => {
    expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
      expect.objectContaining({ file, pointer, message: expect.stringMatching(text) }),
    );
  };

  beforeAll(async () => {
    pristine = (await loadDefinitionSources(REPO_ROOT)).sources;
  });

  it("pass on the repository's definitions", () => {
    expect(checkDefinitions(clone(), implementationNames, DEFINITION_RULES)).toEqual([]);
  });

  it('report a stale composed meta-schema', () => {
    const s = clone();
    json(s, ENTITY_META_BASE_FILE).properties.labelField.description = 'changed without codegen';
    expectProblem(
      checkDefinitions(s, implementationNames, DEFINITION_RULES),
      ENTITY_META_FILE,
      '',
      /run npm run codegen/,
    );
  });

  it('check the fields of aggregates, merge and public lookups, the screens that offer drafts and public submission paths', () => {
    const s = clone();
    const aggregates = manifestWith(s, 'aggregates');
    const [name, aggregate] = Object.entries(json(s, aggregates).aggregates as Record<string, any>)[0]!;
    aggregate.groupBy = ['/noSuchField'];
    const merge = manifestWith(s, 'merge');
    json(s, merge).merge.arrays = ['/noSuchArray'];
    const lookups = manifestWith(s, 'publicLookups');
    json(s, lookups).publicLookups[0].by[0].field = '/noSuchParam';
    json(s, lookups).publicLookups.push(structuredClone(json(s, lookups).publicLookups[0]));
    const submits = [...s.keys()].filter((f) => f.endsWith('/entity.json') && json(s, f).publicSubmit);
    const other = [...s.keys()].find(
      (f) => f.endsWith('/entity.json') && !json(s, f).publicSubmit && !json(s, f).drafts,
    )!;
    json(s, other).publicSubmit = { ...json(s, submits[0]!).publicSubmit };
    const draftScreen = [...s.keys()].find((f) => f.startsWith('screens/') && json(s, f).options?.drafts)!;
    json(s, draftScreen).entity = json(s, other).id;
    const problems = checkDefinitions(s, implementationNames, DEFINITION_RULES);
    expectProblem(problems, aggregates, `/aggregates/${name}/groupBy/0`, /field "\/noSuchField" does not exist/);
    expectProblem(problems, merge, '/merge/arrays/0', /field "\/noSuchArray" does not exist/);
    expectProblem(problems, lookups, '/publicLookups/0/by/0/field', /field "\/noSuchParam" does not exist/);
    expectProblem(
      problems,
      lookups,
      `/publicLookups/${json(s, lookups).publicLookups.length - 1}/name`,
      /declared twice/,
    );
    // Reported at whichever of the two manifests comes later.
    const clash = problems.filter((p) => p.pointer === '/publicSubmit/path');
    expect(clash).toHaveLength(1);
    expect([other, submits[0]]).toContain(clash[0]!.file);
    expect(clash[0]!.message).toMatch(/is already used by schemas\//);
    expectProblem(problems, draftScreen, '/options/drafts', /does not allow drafts/);
  });
});
