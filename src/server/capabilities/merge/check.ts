/**
 * `npm run check` rule of the `merge` capability: every field whose rows a merge
 * concatenates (`merge.arrays`) is an array field of the record schema; `sumBy` names an
 * array field, and its key, sum (numbers) and list (texts) fields are fields of its rows;
 * `same` and `set` name fields, `sources` an array field; `differKeys` only fields of `same`.
 */
import { resolveFieldSchema } from '../../../shared/field-schema.ts';
import { createFieldCheck, entitiesWithSchema, type CheckRule } from '../../../definitions/check/context.ts';

const mergeCheck: CheckRule = {
  name: 'merge',
  run(ctx) {
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      const spec = manifest.merge;
      if (!spec) continue;
      const field = createFieldCheck(ctx.report, schema, schemaFile);
      spec.arrays?.forEach((p, i) => field(file, `/merge/arrays/${i}`, p, { types: ['array'] }));
      const sumBy = spec.sumBy;
      if (sumBy) {
        field(file, '/merge/sumBy/array', sumBy.array, { types: ['array'] });
        // The row fields are fields of the array's items: checked against the items' schema.
        const items = resolveFieldSchema(schema, sumBy.array)?.items;
        if (items && typeof items === 'object' && !Array.isArray(items)) {
          const rowField = createFieldCheck(ctx.report, items, `${schemaFile} (rows of ${sumBy.array})`);
          rowField(file, '/merge/sumBy/key', sumBy.key, { scalar: true });
          sumBy.sum.forEach((p, i) => rowField(file, `/merge/sumBy/sum/${i}`, p, { types: ['number', 'integer'] }));
          sumBy.list?.forEach((p, i) => rowField(file, `/merge/sumBy/list/${i}`, p, { types: ['string'] }));
        }
      }
      spec.same?.forEach((p, i) => field(file, `/merge/same/${i}`, p, { scalar: true }));
      for (const p of Object.keys(spec.differKeys ?? {}))
        if (!spec.same?.includes(p))
          ctx.report(file, `/merge/differKeys${p}`, `"${p}" has a message but is not one of merge.same`);
      if (spec.sources) field(file, '/merge/sources', spec.sources, { types: ['array'] });
      Object.keys(spec.set ?? {}).forEach((p) => field(file, `/merge/set${p}`, p));
    }
  },
};

export default mergeCheck;
