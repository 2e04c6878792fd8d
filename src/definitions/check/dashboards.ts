/**
 * `npm run check` rule for the dashboards (screens of kind `dashboard`, options per
 * schemas/_meta/dashboard.schema.json, already valid against it): the tabs name panels that
 * exist and hold every panel exactly once; an aggregate endpoint names an aggregate its entity
 * declares; `source.period` is a dateRange grid filter of the source entity; a drill target is
 * a list screen of the source entity and `drill.by` names its grid's filters; `columnGroups`
 * and `groupRows` name columns of their panel. Messages name the screen file and the JSON
 * pointer, with the closest allowed name where one is near.
 */
import type { DashboardOptions, DashboardSource, GridDefinition } from '../../generated/meta.ts';
import { aggregateOf } from '../../shared/dashboard-query.ts';
import { filterParamNames } from '../../shared/filter-kinds.ts';
import type { CheckContext, CheckRule, EntityEntry } from './context.ts';
import { didYouMean, unknownNameMessage } from './suggest.ts';

/** The entity whose API base the endpoint is under (the longest base that fits). */
function entityOfEndpoint(ctx: CheckContext, endpoint: string): EntityEntry | undefined {
  let best: EntityEntry | undefined;
  for (const e of ctx.entityList)
    if (endpoint.startsWith(`/api${e.manifest.base}/`) && (!best || e.manifest.base.length > best.manifest.base.length))
      best = e;
  return best;
}

const gridOf = (ctx: CheckContext, e: EntityEntry | undefined): GridDefinition | undefined =>
  e?.gridFile && ctx.sources.has(e.gridFile) ? ctx.json<GridDefinition>(e.gridFile) : undefined;

/** A source's aggregate exists and its period names a dateRange grid filter of its entity. */
function checkSource(ctx: CheckContext, file: string, at: string, source: DashboardSource): EntityEntry | undefined {
  const entity = entityOfEndpoint(ctx, source.endpoint);
  const agg = aggregateOf(source.endpoint);
  if (agg && entity) {
    const declared = Object.keys(entity.manifest.aggregates ?? {});
    if (!declared.includes(agg.name))
      ctx.report(
        file,
        `${at}/endpoint`,
        unknownNameMessage('aggregate', agg.name, `an aggregate of ${entity.manifest.id}`, declared),
      );
  }
  if (source.period) {
    const ranges = (gridOf(ctx, entity)?.filters ?? []).filter((f) => f.kind === 'dateRange').map((f) => f.name);
    if (!entity)
      ctx.report(file, `${at}/period`, `period needs a source under an entity's API (${source.endpoint} is none)`);
    else if (!ranges.includes(source.period))
      ctx.report(
        file,
        `${at}/period`,
        unknownNameMessage(
          'period filter',
          source.period,
          `a dateRange filter of ${entity.manifest.id}'s grid`,
          ranges,
        ),
      );
  }
  return entity;
}

/** Dashboards: tabs, aggregates, periods, drill targets, column groups and group rows. */
export const dashboardsRule: CheckRule = {
  name: 'dashboards',
  run(ctx) {
    for (const { file, screen } of ctx.screens) {
      if (screen.kind !== 'dashboard' || !screen.options) continue;
      const options = screen.options as unknown as DashboardOptions;
      const ids = options.panels.map((p) => p.id);
      if (options.tabs) {
        options.tabs.forEach((tab, i) =>
          tab.panels.forEach((id, j) => {
            if (!ids.includes(id))
              ctx.report(
                file,
                `/options/tabs/${i}/panels/${j}`,
                unknownNameMessage('panel', id, 'a panel of this dashboard', ids),
              );
          }),
        );
        options.panels.forEach((p, i) => {
          const tabs = options.tabs!.filter((t) => t.panels.includes(p.id)).map((t) => t.id);
          if (tabs.length !== 1)
            ctx.report(
              file,
              `/options/panels/${i}`,
              tabs.length
                ? `panel "${p.id}" is in ${tabs.length} tabs (${tabs.join(', ')}); put it in exactly one`
                : `panel "${p.id}" is in no tab; with tabs, every panel belongs to exactly one`,
            );
        });
      }
      options.panels.forEach((panel, i) => {
        const at = `/options/panels/${i}`;
        const entity = checkSource(ctx, file, `${at}/source`, panel.source);
        if (panel.groupRows?.totals) checkSource(ctx, file, `${at}/groupRows/totals`, panel.groupRows.totals);
        const columns = (panel.columns ?? []).map((c) => c.field);
        panel.columnGroups?.forEach((g, gi) =>
          g.columns.forEach((c, ci) => {
            if (!columns.includes(c))
              ctx.report(
                file,
                `${at}/columnGroups/${gi}/columns/${ci}`,
                unknownNameMessage('column', c, 'a column of this panel', columns),
              );
          }),
        );
        if (panel.groupRows && !columns.includes(panel.groupRows.field))
          ctx.report(
            file,
            `${at}/groupRows/field`,
            unknownNameMessage('column', panel.groupRows.field, 'a column of this panel', columns),
          );
        if (!panel.drill) return;
        const lists = ctx.screens.filter(
          (s) => s.screen.kind === 'list' && (!entity || s.screen.entity === entity.manifest.id),
        );
        const target = ctx.screens.find((s) => s.screen.id === panel.drill!.screen)?.screen;
        if (!entity) {
          ctx.report(
            file,
            `${at}/drill`,
            `drill needs a source under an entity's API (${panel.source.endpoint} is none)`,
          );
          return;
        }
        if (!target || target.kind !== 'list' || target.entity !== entity.manifest.id) {
          const names = lists.map((s) => s.screen.id);
          ctx.report(
            file,
            `${at}/drill/screen`,
            target
              ? `screen "${target.id}" is not a list screen of ${entity.manifest.id}${didYouMean(target.id, names)} Allowed: ${names.sort().join(', ')}`
              : unknownNameMessage('screen', panel.drill.screen, `a list screen of ${entity.manifest.id}`, names),
          );
        }
        const params = (gridOf(ctx, entity)?.filters ?? []).flatMap((f) => filterParamNames(f));
        for (const [field, name] of Object.entries(panel.drill.by ?? {}))
          if (!params.includes(name))
            ctx.report(
              file,
              `${at}/drill/by/${field}`,
              unknownNameMessage('list filter', name, `a filter of ${entity.manifest.id}'s grid`, params),
            );
      });
    }
  },
};
