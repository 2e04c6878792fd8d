/**
 * `npm run check` rule part for list screens' `fixedFilters` (screen.schema.json) and outbox screens
 * (an entity is required): a slice of an
 * entity's records (a desk's "received" list) is named by filters of the entity's grid, and a
 * filter on the status names states its machine has — so a renamed state or filter fails here,
 * not as an empty list on screen.
 */
import type { GridDefinition, ScreenDefinition } from '../../generated/meta.ts';
import type { CheckContext, EntityEntry } from './context.ts';

/** Reports the fixed filters of a list screen that its entity's grid or machine does not know. */
export function checkFixedFilters(
  ctx: CheckContext,
  file: string,
  screen: ScreenDefinition,
  target: EntityEntry | undefined,
): void {
  // The sent-messages log lists the outbox rows of one entity's records.
  if (screen.kind === 'outbox' && !target) ctx.report(file, '/entity', 'an outbox screen needs an entity');
  const fixed = (screen.options as { fixedFilters?: Record<string, string> } | undefined)?.fixedFilters;
  if (!fixed) return;
  if (screen.kind !== 'list' || !target) {
    ctx.report(file, '/options/fixedFilters', 'fixedFilters need a list screen of an entity');
    return;
  }
  const grid =
    target.gridFile && ctx.sources.has(target.gridFile) ? ctx.json<GridDefinition>(target.gridFile) : undefined;
  const machine = target.manifest.workflow ? ctx.machines.get(target.manifest.workflow) : undefined;
  for (const [name, value] of Object.entries(fixed)) {
    const at = `/options/fixedFilters/${name}`;
    const filter = grid?.filters.find((f) => f.name === name);
    if (!filter) {
      ctx.report(file, at, `the grid of "${screen.entity}" has no filter "${name}"`);
      continue;
    }
    if (filter.field !== '/status' || !machine) continue;
    const values = filter.kind === 'in' ? value.split(',').map((v) => v.trim()) : [value];
    for (const state of values)
      if (!Object.hasOwn(machine.states, state))
        ctx.report(file, at, `machine "${machine.id}" has no state "${state}"`);
  }
}
