/**
 * `npm run check` rule of the `eventByKey` capability: the route is free, the key's filter is an
 * eq filter of the grid on a unique field (so a key names at most one record), the event and the
 * done states belong to the entity's machine, and the not-found text exists.
 */
import type { GridDefinition } from '../../../generated/meta.ts';
import type { CheckRule } from '../../../definitions/check/context.ts';

const eventByKeyCheck: CheckRule = {
  name: 'eventByKey',
  run(ctx) {
    const routes = new Map<string, string>();
    for (const { manifest, file, gridFile } of ctx.entityList) {
      if (!manifest.eventByKey) continue;
      const grid = gridFile && ctx.sources.has(gridFile) ? ctx.json<GridDefinition>(gridFile) : undefined;
      const machine = manifest.workflow ? ctx.machines.get(manifest.workflow) : undefined;
      manifest.eventByKey.forEach((spec, i) => {
        const at = `/eventByKey/${i}`;
        const taken = routes.get(spec.route);
        if (taken) ctx.report(file, `${at}/route`, `route "${spec.route}" is already used by ${taken}`);
        routes.set(spec.route, file);
        ctx.useKey(file, `${at}/notFoundKey`, spec.notFoundKey);
        const filter = grid?.filters.find((f) => f.name === spec.filter);
        if (!filter || filter.kind !== 'eq')
          ctx.report(file, `${at}/filter`, `the grid has no eq filter "${spec.filter}" to look the key up with`);
        else if (!filter.field || !(manifest.unique ?? []).includes(filter.field))
          ctx.report(
            file,
            `${at}/filter`,
            `the filter's field ${filter.field ?? ''} must be in the manifest's "unique"`,
          );
        if (!machine) {
          ctx.report(file, `${at}/event`, 'eventByKey needs an entity with a workflow');
          return;
        }
        const events = new Set(Object.values(machine.states).flatMap((s) => Object.keys(s.on ?? {})));
        if (!events.has(spec.event))
          ctx.report(file, `${at}/event`, `machine "${machine.id}" has no event "${spec.event}"`);
        (spec.doneStates ?? []).forEach((state, j) => {
          if (!Object.hasOwn(machine.states, state))
            ctx.report(file, `${at}/doneStates/${j}`, `machine "${machine.id}" has no state "${state}"`);
        });
      });
    }
  },
};

export default eventByKeyCheck;
