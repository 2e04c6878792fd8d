/**
 * How an appeal came in (issue #18 item 2): the channel a stored appeal gets from migration 2
 * (from the row's owner: the cabinet, else the public e-form), the fields a public submit sets
 * whatever the sender wrote (manifest publicSubmit.sets), and the check naming a `sets` field
 * the record does not have.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createServerAjv } from '../../src/server/validation.ts';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions } from '../../src/definitions/check.ts';
import { createDefinitionRegistry, type EntityDefinition } from '../../src/definitions/registry.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';
import { evolveRecord } from '../../src/server/evolution/evolve-record.ts';
import { withServerFields } from '../../src/server/capabilities/publicSubmit/plugin.ts';
import migration2 from '../../schemas/appeal/migrations/2.ts';
import { appealInput } from '../support/public-samples.ts';

let sources: DefinitionSources;
let appeal: EntityDefinition;
beforeAll(async () => {
  sources = (await loadDefinitionSources(REPO_ROOT)).sources;
  appeal = createDefinitionRegistry(sources).entities.get('appeal')!;
});

describe('appeal migration 2: the channel of an appeal stored before channels', () => {
  const stored = (owner: string | null, data: Record<string, unknown>) => {
    const { channelId: _, ...before } = data;
    return evolveRecord(
      appeal,
      createServerAjv().compile(appeal.schema),
      new Map([[`schemas/appeal/migrations/2.json`, new Map([['./2.ts', migration2]])]]),
      {
        id: 7,
        data: before,
        kept: {},
        schemaVersion: 1,
        owner,
      },
    );
  };

  it('is the personal cabinet for an appeal with an owner, the e-form for one without; the record stays valid', () => {
    const cabinet = stored('12', appealInput(1));
    expect(cabinet).toMatchObject({ applied: ['schemas/appeal/migrations/2.json'], schemaVersion: 2, errors: [] });
    expect(cabinet.data.channelId).toBe(2);
    const eForm = stored(null, appealInput(2));
    expect(eForm.data.channelId).toBe(1);
    expect(eForm.errors).toEqual([]);
  });

  it('keeps a channel the record already has', () => {
    expect(migration2({ channelId: 6 }, { owner: '3' })).toEqual({ channelId: 6 });
  });
});

describe('publicSubmit.sets', () => {
  const sets = { '/channelId': { guest: 1, signedIn: 2 } };

  it("puts the guest's or the signed-in value over what the sender wrote, on a copy", () => {
    const sent = { channelId: 6, phone: 'x' };
    expect(withServerFields(sent, sets, false)).toEqual({ channelId: 1, phone: 'x' });
    expect(withServerFields(sent, sets, true)).toEqual({ channelId: 2, phone: 'x' });
    expect(withServerFields({}, { '/a/b': { guest: 'g' } }, true)).toEqual({ a: { b: 'g' } });
    expect(sent.channelId).toBe(6);
    expect(withServerFields(sent, undefined, true)).toBe(sent);
  });

  it('the appeal sets its channel on the public submit', () => {
    expect(appeal.manifest.publicSubmit?.sets).toEqual(sets);
  });

  it('npm run check names a field the record does not have', () => {
    const s = new Map([...sources].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
    const manifest = s.get('schemas/appeal/entity.json')!.json as { publicSubmit: { sets: Record<string, unknown> } };
    manifest.publicSubmit.sets['/chanelId'] = { guest: 1 };
    manifest.publicSubmit.sets['/customer'] = { guest: 1 };
    const problems = checkDefinitions(s, implementationNames, DEFINITION_RULES);
    expect(problems).toContainEqual(
      expect.objectContaining({
        file: 'schemas/appeal/entity.json',
        pointer: '/publicSubmit/sets/~1chanelId',
        message: expect.stringMatching(/field "\/chanelId" does not exist .*did you mean.*\/channelId/i),
      }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({
        pointer: '/publicSubmit/sets/~1customer',
        message: 'field "/customer" is not a scalar',
      }),
    );
  });
});
