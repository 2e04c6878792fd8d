/**
 * The entity definition as the list screen shows it: the statuses its filter offers and the
 * grid without what the user may not read.
 */
import type { MachineDefinition } from '../../generated/meta.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { touchesHiddenField } from '../../shared/hidden-fields.ts';

/** Status names of an entity: its machine's states, else the status new records get. */
export const statusesOf = (def: EntityDefinition, machine: MachineDefinition | null | undefined): string[] =>
  machine ? Object.keys(machine.states) : [def.manifest.initialStatus ?? 'CREATED'];

/**
 * The definition as a user who may not read some fields (their roles' hiddenFields) lists it:
 * without the columns, filters and default sort of those fields (the server refuses such
 * filters and sorts, and sends no values for such columns).
 */
export function withoutHiddenColumns(def: EntityDefinition, hidden: readonly string[]): EntityDefinition {
  if (!hidden.length) return def;
  const shown = (field: string | undefined) => !field || !touchesHiddenField(hidden, field);
  const grid = def.grid;
  return {
    ...def,
    grid: {
      ...grid,
      columns: grid.columns.filter((c) => shown(c.field)),
      filters: grid.filters.filter((f) => shown(f.field)),
      defaultSort: grid.defaultSort.filter((d) => shown(d.field)),
    },
  };
}

/**
 * The definition without the filters a screen fixes (`options.fixedFilters`): they are always
 * in force there, so the filter bar does not offer them.
 */
export function withoutFixedFilters(
  def: EntityDefinition,
  fixed: Readonly<Record<string, string>> | undefined,
): EntityDefinition {
  if (!fixed) return def;
  return { ...def, grid: { ...def.grid, filters: def.grid.filters.filter((f) => !Object.hasOwn(fixed, f.name)) } };
}
