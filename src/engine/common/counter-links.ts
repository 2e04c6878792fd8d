import { useQueries, useQuery } from '@tanstack/react-query';
import type { GridDefinition } from '../../generated/meta.ts';
import { loadCounterRules, loadEntity, type CounterRule } from '../../definitions/client.ts';
import { queryKeys } from '../../client/query-keys.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { staffHomeRoute } from '../../client/landing.ts';
import type { PortalAbility } from '../../shared/ability.ts';
import { entityScreenPath } from './routes.ts';

/** The staff home's "my work" section: where a counter of the user's own assigned records leads. */
export const MY_WORK_ANCHOR = 'my-work';

/**
 * Where a header counter leads: a counter of records assigned to the user goes to "my work"
 * on the staff home; another to the list of its (first) entity, filtered by what it counts —
 * one status by the grid's `eq` filter on `/status`, several by its `in` filter (the whole list
 * when the grid has no such filter); nowhere when the user has no list of it.
 * @example counterLink([{ entity: 'x', statuses: ['NEW'] }], grids, ability) // '/admin/x?statusId=NEW'
 */
export function counterLink(
  rules: readonly CounterRule[],
  grids: ReadonlyMap<string, GridDefinition>,
  ability: PortalAbility,
  home: string | undefined = staffHomeRoute(),
): string | undefined {
  if (rules.some((r) => r.assignedTo)) return home ? `${home}#${MY_WORK_ANCHOR}` : undefined;
  const rule = rules[0];
  if (!rule) return undefined;
  const list = entityScreenPath(rule.entity, ['list'], undefined, ability);
  if (!list) return undefined;
  // One status by the grid's `eq` filter on the status, several by its `in` filter: the list shows what was counted.
  const kind = rule.statuses.length === 1 ? 'eq' : 'in';
  const filter = grids.get(rule.entity)?.filters.find((f) => f.field === '/status' && f.kind === kind);
  return filter && rule.statuses.length
    ? `${list}?${new URLSearchParams({ [filter.name]: rule.statuses.join(',') })}`
    : list;
}

/** Each header counter's link ({@link counterLink}) by counter name, once the rules and grids have loaded. */
export function useCounterLinks(enabled = true): Record<string, string | undefined> {
  const ability = useAbility();
  const rules = useQuery({
    queryKey: queryKeys.definition.counters(),
    queryFn: loadCounterRules,
    staleTime: Infinity,
    enabled,
  });
  const entities = [...new Set(Object.values(rules.data ?? {}).flatMap((r) => (r[0] ? [r[0].entity] : [])))];
  const defs = useQueries({
    queries: entities.map((entity) => ({
      queryKey: queryKeys.definition.entity(entity),
      queryFn: () => loadEntity(entity),
      staleTime: Infinity,
    })),
  });
  const grids = new Map(defs.flatMap((d) => (d.data ? [[d.data.id, d.data.grid] as const] : [])));
  return Object.fromEntries(
    Object.entries(rules.data ?? {}).map(([name, r]) => [name, counterLink(r, grids, ability)] as const),
  );
}
