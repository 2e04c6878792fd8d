import { useQuery } from '@tanstack/react-query';
import type { DashboardField, DashboardFilter, DashboardPanel } from '../../generated/meta.ts';
import { loadEntity, manifests, screens } from '../../definitions/client.ts';
import { queryKeys } from '../../client/query-keys.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { canOpen } from '../../shared/ability.ts';
import { aggregateOf, drillQuery, type FilterValues } from '../../shared/dashboard-query.ts';
import { filterParamNames } from '../../shared/filter-kinds.ts';
import { isNumeric, type Row } from './table-model.ts';

/** A measure's own filter (the aggregate meta-schema's `measures[].filter`). */
type MeasureFilter = Record<string, string | number | boolean | Array<string | number>>;

/** Where a panel's numbers lead, and which of its row fields are group values. */
export interface Drill {
  /** The fields that tell a panel's rows apart (the aggregate's `groupBy`, else its non-numeric columns). */
  groupFields: string[];
  /** The list link of a number of `column` for the given group values; undefined: no link. */
  href(column: DashboardField, group: Row): string | undefined;
}

/**
 * The drill-down of a panel: a number of column `c` in a line with group values `g` links to the
 * panel's `drill.screen` (its route from the screen registry) with {@link drillQuery} — the
 * dashboard's filters, the group values (renamed by `drill.by`) and the aggregate measure's own
 * `filter` — keeping only parameters the target list's grid accepts, so the list shows exactly
 * the records counted. No link where the panel has no `drill`, the column says `drill: false`,
 * the column is not a measure of the aggregate, or the user may not open the list.
 */
export function useDrill(
  panel: DashboardPanel,
  filters: readonly DashboardFilter[] | undefined,
  values: FilterValues,
): Drill {
  const ability = useAbility();
  const target = panel.drill ? screens.find((s) => s.id === panel.drill!.screen) : undefined;
  const entity = useQuery({
    queryKey: queryKeys.definition.entity(target?.entity),
    queryFn: () => loadEntity(target!.entity!),
    enabled: Boolean(target?.entity),
    staleTime: Infinity,
  });
  const agg = aggregateOf(panel.source.endpoint);
  const manifest = agg ? [...manifests.values()].find((m) => m.base === agg.base) : undefined;
  const aggregate = agg ? manifest?.aggregates?.[agg.name] : undefined;
  const groupFields = aggregate
    ? (aggregate.groupBy ?? []).map((p) => p.slice(p.lastIndexOf('/') + 1))
    : (panel.columns ?? []).filter((c) => !isNumeric(c.format)).map((c) => c.field);
  const grid = entity.data?.grid;
  const open = target && grid && canOpen(ability, target.permission, true);
  const listFilters = new Set(grid?.filters.flatMap((f) => filterParamNames(f)) ?? []);
  return {
    groupFields,
    href(column, group) {
      if (!open || column.drill === false) return undefined;
      const measure = aggregate?.measures.find((m) => m.name === column.field) as
        | { filter?: MeasureFilter }
        | undefined;
      if (aggregate ? !measure : !isNumeric(column.format)) return undefined;
      const query = drillQuery(panel, filters, values, group, measure?.filter, listFilters).toString();
      return query ? `${target.route}?${query}` : target.route;
    },
  };
}
