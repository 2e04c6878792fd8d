/**
 * `npm run check` rule of the `scorecard` capability: the fields it names exist in the record
 * schema; each area is entered, derived or answered, with a code of its own and a text (and a
 * recommendation, where given) in the four languages; an answered area's answers exist; a derived area names an aggregate some manifest declares, measures of it,
 * and grid filters of that entity for the period (dateRange) and the unit; the bands go from
 * the best down.
 */
import {
  createFieldCheck,
  entitiesWithSchema,
  type CheckContext,
  type CheckRule,
} from '../../../definitions/check/context.ts';
import type { GridDefinition } from '../../../generated/meta.ts';

const AGGREGATE_URL = /^\/api(\/.+)\/aggregate\/([a-z][a-z0-9-]*)$/;

/** The grid filters of the entity whose base is `base`, and its declared aggregate `name`'s measure names. */
function targetOf(ctx: CheckContext, base: string, name: string) {
  const entry = ctx.entityList.find((e) => e.manifest.base === base && e.manifest.aggregates?.[name]);
  if (!entry) return undefined;
  const grid = entry.gridFile ? ctx.json<GridDefinition>(entry.gridFile) : undefined;
  return {
    filters: new Map((grid?.filters ?? []).map((f) => [f.name, f.kind] as const)),
    measures: new Set(entry.manifest.aggregates![name]!.measures.map((m) => m.name)),
  };
}

const scorecardCheck: CheckRule = {
  name: 'scorecard',
  run(ctx) {
    const { report } = ctx;
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      const card = manifest.scorecard;
      if (!card) continue;
      const field = createFieldCheck(report, schema, schemaFile);
      for (const [name, pointer] of Object.entries(card.fields))
        field(file, `/scorecard/fields/${name}`, pointer as string);
      const codes = new Set<string>();
      card.areas.forEach((area, i) => {
        const at = `/scorecard/areas/${i}`;
        if (codes.has(area.code)) report(file, `${at}/code`, `area code "${area.code}" is used twice`);
        codes.add(area.code);
        ctx.useKey(file, `${at}/titleKey`, area.titleKey);
        if ([area.entered, area.derived, area.answered].filter(Boolean).length !== 1)
          report(file, at, 'an area is "entered", "derived" or "answered" (exactly one of them)');
        if (area.entered && !card.fields.entered)
          report(
            file,
            `${at}/entered`,
            'an entered area needs the field of the entered points (/scorecard/fields/entered)',
          );
        if (area.recommendationKey) ctx.useKey(file, `${at}/recommendationKey`, area.recommendationKey);
        area.answered?.fields.forEach((pointer, j) => field(file, `${at}/answered/fields/${j}`, pointer));
        const rule = area.derived;
        if (!rule) return;
        const [, base, name] = AGGREGATE_URL.exec(rule.aggregate) ?? [];
        const target = base && name ? targetOf(ctx, base, name) : undefined;
        if (!target)
          return report(file, `${at}/derived/aggregate`, `no manifest declares the aggregate ${rule.aggregate}`);
        if (target.filters.get(rule.period) !== 'dateRange')
          report(file, `${at}/derived/period`, `"${rule.period}" is not a dateRange grid filter of ${base}`);
        if (!target.filters.has(rule.unit))
          report(file, `${at}/derived/unit`, `"${rule.unit}" is not a grid filter of ${base}`);
        rule.ratio.forEach((part, j) => {
          const measure = typeof part === 'string' ? part : part.measure;
          if (!target.measures.has(measure))
            report(file, `${at}/derived/ratio/${j}`, `the aggregate ${rule.aggregate} has no measure "${measure}"`);
        });
      });
      if ((card.fields.weak || card.fields.weakList) && card.weakBelow === undefined)
        report(
          file,
          '/scorecard/weakBelow',
          'the weak-area fields need weakBelow (the share below which an area is weak)',
        );
      card.bands.forEach((band, i) => {
        if (i > 0 && band.minPercent >= card.bands[i - 1]!.minPercent)
          report(
            file,
            `/scorecard/bands/${i}/minPercent`,
            'bands go from the best down: each minPercent below the one before',
          );
      });
    }
  },
};

export default scorecardCheck;
