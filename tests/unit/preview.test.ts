/**
 * The pure parts of `npm run preview`: which entities a changed file belongs to (for
 * `--changed`), and the machine diagram, which draws every state and every event of every
 * machine and marks a state nothing leads to.
 */
import { describe, expect, it } from 'vitest';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { entitiesOfFiles } from '../../scripts/preview/changed.ts';
import { machineEdges, machineSvg } from '../../scripts/preview/diagram.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const withMachine = [...registry.entities.values()].find((e) => e.manifest.workflow)!;
const screenOf = [...registry.screens.values()].find((s) => s.entity && s.entity !== withMachine.id)!;

describe('the entities of changed files', () => {
  it("maps an entity's folder, its machine and its screens to it, and shared files to none", () => {
    const followers = [...registry.entities.values()]
      .filter((e) => e.manifest.workflow === withMachine.manifest.workflow)
      .map((e) => e.id);
    expect(entitiesOfFiles(registry, [`workflows/${withMachine.manifest.workflow}.machine.json`])).toEqual(
      followers.sort(),
    );
    expect(entitiesOfFiles(registry, [`schemas/${withMachine.id}/grid.json`])).toEqual([withMachine.id]);
    expect(entitiesOfFiles(registry, [`schemas/${withMachine.id}/i18n.json`])).toEqual([withMachine.id]);
    expect(entitiesOfFiles(registry, [`screens/${screenOf.id}.json`])).toEqual([screenOf.entity]);
    expect(entitiesOfFiles(registry, ['schemas/_meta/record.schema.json', 'src/server/app.ts', 'README.md'])).toEqual(
      [],
    );
  });
});

describe('the machine diagram', () => {
  for (const machine of registry.machines.values()) {
    it(`${machine.id}: every state and every event is drawn, with the given labels`, () => {
      const svg = machineSvg(machine, { state: (s) => `«${s}»`, event: () => undefined });
      for (const state of Object.keys(machine.states)) {
        expect(svg).toContain(`data-state="${state}"`);
        expect(svg).toContain(`«${state}»`);
      }
      for (const { event } of machineEdges(machine)) expect(svg).toContain(`data-event="${event}"`);
      expect(svg).not.toContain('unreachable');
    });
  }

  it('marks a state no transition leads to', () => {
    const machine = structuredClone([...registry.machines.values()][0]!);
    machine.states.ORPHAN = { description: 'nothing leads here' } as never;
    expect(machineSvg(machine, { state: () => undefined, event: () => undefined })).toMatch(/ORPHAN · unreachable/);
  });
});
