/**
 * `npm run check` rule part for a list screen's `facets` (screen options): each names the
 * grid's `in` filter on a field, an aggregate of the manifest grouping by that same field with
 * a `count` measure (the numbers the strip shows), and optionally the grid's `empty` filter on
 * the field (the records without a value). Called by the screens rule.
 */
import type { GridDefinition, ScreenDefinition } from '../../generated/meta.ts';
import type { CheckContext, EntityEntry } from './context.ts';

type Facet = { filter: string; aggregate: string; emptyFilter?: string };

/** Checks `screen`'s facets (file `file`) against its entity `target`'s grid and aggregates. */
export function checkFacets(
  ctx: CheckContext,
  file: string,
  screen: ScreenDefinition,
  target: EntityEntry | undefined,
): void {
  const facets = (screen.options as { facets?: Facet[] } | undefined)?.facets;
  if (!facets) return;
  if (screen.kind !== 'list' || !target)
    return ctx.report(file, '/options/facets', 'facets need a list screen of an entity');
  const grid = ctx.sources.get(`schemas/${screen.entity}/${target.manifest.grid}`)?.json as GridDefinition | undefined;
  const filters = grid?.filters ?? [];
  facets.forEach((facet, i) => {
    const at = `/options/facets/${i}`;
    const filter = filters.find((f) => f.name === facet.filter);
    if (filter?.kind !== 'in' || !filter.field)
      return ctx.report(file, `${at}/filter`, `the grid of "${screen.entity}" has no "in" filter "${facet.filter}"`);
    const empty = facet.emptyFilter && filters.find((f) => f.name === facet.emptyFilter);
    if (facet.emptyFilter && (!empty || empty.kind !== 'empty' || empty.field !== filter.field))
      ctx.report(file, `${at}/emptyFilter`, `the grid has no "empty" filter "${facet.emptyFilter}" on ${filter.field}`);
    const aggregate = target.manifest.aggregates?.[facet.aggregate];
    if (
      !aggregate ||
      aggregate.groupBy?.length !== 1 ||
      aggregate.groupBy[0] !== filter.field ||
      !aggregate.measures.some((m) => m.name === 'count' && m.fn === 'count')
    )
      ctx.report(
        file,
        `${at}/aggregate`,
        `entity "${screen.entity}" has no aggregate "${facet.aggregate}" grouping by ${filter.field} alone with a measure {"name": "count", "fn": "count"}`,
      );
  });
}
