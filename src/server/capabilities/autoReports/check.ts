/**
 * `npm run check` rule of the `autoReports` capability: the source entity exists and declares
 * the named aggregate and the date filter; each type's filter names the source grid's filters;
 * each column is a group or measure of the aggregate; the report's own schema has the fields
 * the server reads and writes, and its `type` takes exactly the declared types.
 */
import { entitiesWithSchema, escape, type CheckRule } from '../../../definitions/check/context.ts';
import type { GridDefinition } from '../../../generated/meta.ts';
import { enumOptions } from '../../../shared/format.ts';

/** The fields of a report record: read from the input, or written by the server. */
const REPORT_FIELDS = ['type', 'periodFrom', 'periodTo', 'key', 'trigger', 'generatedAt', 'rows', 'file'];

const autoReportsCheck: CheckRule = {
  name: 'autoReports',
  run(ctx) {
    const { report } = ctx;
    const all = [...entitiesWithSchema(ctx)];
    for (const { manifest, file, schema } of all) {
      const spec = manifest.autoReports;
      if (!spec) continue;
      const props = (schema.properties ?? {}) as Record<string, object>;
      for (const name of REPORT_FIELDS)
        if (!props[name]) report(file, '/autoReports', `the report schema needs the field "${name}" (docs/outlets.md)`);
      const typeValues = enumOptions(props.type as never)?.map((o) => o.value) ?? [];
      for (const t of Object.keys(spec.types))
        if (!typeValues.includes(t))
          report(file, `/autoReports/types/${escape(t)}`, `the field "type" has no value "${t}"`);
      const source = all.find((e) => e.manifest.id === spec.source);
      if (!source) {
        report(file, '/autoReports/source', `entity "${spec.source}" does not exist (or has no valid schema)`);
        continue;
      }
      const aggregate = source.manifest.aggregates?.[spec.aggregate];
      if (!aggregate)
        report(file, '/autoReports/aggregate', `entity "${spec.source}" declares no aggregate "${spec.aggregate}"`);
      const grid = source.gridFile ? ctx.json<GridDefinition>(source.gridFile) : undefined;
      const filters = Array.isArray(grid?.filters) ? grid.filters : [];
      if (!filters.some((f) => f.name === spec.dateFilter && f.kind === 'dateRange'))
        report(
          file,
          '/autoReports/dateFilter',
          `the grid of "${spec.source}" has no dateRange filter "${spec.dateFilter}"`,
        );
      for (const [t, { filter }] of Object.entries(spec.types))
        for (const name of Object.keys(filter))
          if (!filters.some((f) => f.name === name))
            report(
              file,
              `/autoReports/types/${escape(t)}/filter/${escape(name)}`,
              `the grid of "${spec.source}" has no filter "${name}"`,
            );
      if (!aggregate) continue;
      const answers = [
        ...(aggregate.groupBy ?? []).map((p) => p.split('/').at(-1)!),
        ...aggregate.measures.map((m) => m.name),
      ];
      spec.columns.forEach((c, i) => {
        if (!answers.includes(c.field))
          report(
            file,
            `/autoReports/columns/${i}/field`,
            `"${c.field}" is not a group or measure of the aggregate "${spec.aggregate}"`,
          );
      });
    }
  },
};

export default autoReportsCheck;
