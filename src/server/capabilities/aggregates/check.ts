/**
 * `npm run check` rule of the `aggregates` capability: every field an aggregate reads exists
 * in the record schema — group-by fields scalar, the date bucket's a string (date or
 * date-time), each measure's numeric; a measure other than count names its field; a measure's
 * `filter` names the grid's filter parameters with values list-search would take.
 */
import { createFieldCheck, entitiesWithSchema, escape, type CheckRule } from '../../../definitions/check/context.ts';
import type { GridDefinition } from '../../../generated/meta.ts';
import { parseMeasureFilter } from '../../store/measure-filter.ts';

const aggregatesCheck: CheckRule = {
  name: 'aggregates',
  run(ctx) {
    const { report } = ctx;
    for (const { manifest, file, schema, schemaFile, gridFile } of entitiesWithSchema(ctx)) {
      if (!manifest.aggregates) continue;
      const field = createFieldCheck(report, schema, schemaFile);
      // The grid rule reports a grid that is not valid; its filters are read only when they are a list.
      const grid = gridFile ? ctx.json<GridDefinition>(gridFile) : undefined;
      const listGrid = Array.isArray(grid?.filters) ? grid : undefined;
      for (const [name, aggregate] of Object.entries(manifest.aggregates)) {
        const at = `/aggregates/${escape(name)}`;
        aggregate.groupBy?.forEach((p, i) => field(file, `${at}/groupBy/${i}`, p, { scalar: true }));
        if (aggregate.dateBucket)
          field(file, `${at}/dateBucket/field`, aggregate.dateBucket.field, { types: ['string'] });
        aggregate.measures.forEach((m, i) => {
          if (m.filter && !listGrid)
            report(file, `${at}/measures/${i}/filter`, `a measure filter needs the entity's grid filters (grid.json)`);
          else if (m.filter)
            for (const p of parseMeasureFilter({ grid: listGrid!, schema }, m.filter).problems)
              report(file, `${at}/measures/${i}/filter/${escape(p.key)}`, p.message);
          if (m.fn === 'count') return;
          if (!m.field) report(file, `${at}/measures/${i}`, `measure "${m.name}" (${m.fn}) needs a field`);
          else field(file, `${at}/measures/${i}/field`, m.field, { types: ['integer', 'number'] });
        });
      }
    }
  },
};

export default aggregatesCheck;
