/**
 * "My work" derived from the machines (src/definitions/work-queue.ts): which states wait for
 * the user a record field names — from `actorIsAssigned` guards, or a state's declared
 * `awaits` — and which of them a user acts in by their event permissions; plus the check of a
 * declared `awaits.field`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MachineDefinition } from '../../src/generated/meta.ts';
import { awaitingStates, statesAwaitingUser } from '../../src/definitions/work-queue.ts';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions } from '../../src/definitions/check.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';
import { REPO_ROOT } from '../../src/server/app.ts';

const assigned = (field: string) => ({ type: 'actorIsAssigned', params: { field } });
const machine = {
  id: 'm',
  version: 1,
  description: 'test',
  initial: 'NEW',
  states: {
    NEW: { description: 'new', on: { ASSIGN: { target: 'WORK', description: 'assign' } } },
    WORK: {
      description: 'work',
      on: {
        FINISH: { target: 'SIGN', description: 'finish', guard: assigned('/executorId') },
        ASSIGN: { target: 'WORK', description: 'reassign' },
      },
    },
    SIGN: {
      description: 'sign',
      on: {
        SIGN: [{ target: 'DONE', description: 'sign', guard: assigned('/signerId') }],
        BACK: { target: 'WORK', description: 'back', guard: assigned('/executorId') },
      },
    },
    CHECK: {
      description: 'check',
      awaits: { field: '/reviewerId' },
      on: { OK: { target: 'DONE', description: 'ok' } },
    },
    DONE: { description: 'done', type: 'final' },
  },
} as unknown as MachineDefinition;

describe('my work from the machines', () => {
  it('a state whose events only an assigned user may send waits for the user in that field', () => {
    expect(awaitingStates(machine)).toEqual([
      { state: 'WORK', field: '/executorId', events: ['FINISH'] },
      { state: 'SIGN', field: '/signerId', events: ['SIGN'] },
      { state: 'SIGN', field: '/executorId', events: ['BACK'] },
      { state: 'CHECK', field: '/reviewerId', events: ['OK'] },
    ]);
  });

  it('a state with neither the guard nor `awaits` waits for nobody in particular', () => {
    const states = awaitingStates(machine).map((a) => a.state);
    expect(states).not.toContain('NEW');
    expect(states).not.toContain('DONE');
  });

  it("counts only the states whose events the user's roles may send", () => {
    expect(statesAwaitingUser(machine, (e) => e === 'SIGN')).toEqual([{ field: '/signerId', states: ['SIGN'] }]);
    expect(statesAwaitingUser(machine, (e) => ['FINISH', 'BACK', 'OK'].includes(e))).toEqual([
      { field: '/executorId', states: ['WORK', 'SIGN'] },
      { field: '/reviewerId', states: ['CHECK'] },
    ]);
    expect(statesAwaitingUser(machine, () => false)).toEqual([]);
  });

  it("the repository's machines: every field they await exists in each follower's schema", async () => {
    const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
    let followers = 0;
    for (const def of registry.entities.values()) {
      const m = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
      if (!m) continue;
      for (const a of awaitingStates(m)) {
        followers++;
        const top = a.field.split('/')[1]!;
        expect((def.schema.properties ?? {})[top], `${def.id} · ${a.state} · ${a.field}`).toBeDefined();
      }
    }
    expect(followers).toBeGreaterThan(0);
  });
});

describe('npm run check: awaits', () => {
  let sources: DefinitionSources;
  beforeAll(async () => {
    sources = (await loadDefinitionSources(REPO_ROOT)).sources;
  });

  it('names the machine file and pointer of an awaited field the entity lacks or that cannot hold a user id', () => {
    const s: DefinitionSources = new Map([...sources].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
    const file = 'workflows/appeal.machine.json';
    const states = (s.get(file)!.json as MachineDefinition).states;
    states.CREATED!.awaits = { field: '/noSuchField' };
    states.UNDER_REVIEW!.awaits = { field: '/customer' };
    const problems = checkDefinitions(s, implementationNames, DEFINITION_RULES);
    expect(problems).toContainEqual(
      expect.objectContaining({
        file,
        pointer: '/states/CREATED/awaits/field',
        message: expect.stringMatching(/does not exist/),
      }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({
        file,
        pointer: '/states/UNDER_REVIEW/awaits/field',
        message: expect.stringMatching(/must hold a user id/),
      }),
    );
  });
});
