/**
 * `npm run check` rule of the `aggregates` capability: every field an aggregate reads exists
 * in the record schema — group-by fields scalar, the date bucket's a string (date or
 * date-time), each measure's numeric; a measure other than count names its field.
 */
import { createFieldCheck, entitiesWithSchema, escape, type CheckRule } from '../../../definitions/check/context.ts';

const aggregatesCheck: CheckRule = {
  name: 'aggregates',
  run(ctx) {
    const { report } = ctx;
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      if (!manifest.aggregates) continue;
      const field = createFieldCheck(report, schema, schemaFile);
      for (const [name, aggregate] of Object.entries(manifest.aggregates)) {
        const at = `/aggregates/${escape(name)}`;
        aggregate.groupBy?.forEach((p, i) => field(file, `${at}/groupBy/${i}`, p, { scalar: true }));
        if (aggregate.dateBucket)
          field(file, `${at}/dateBucket/field`, aggregate.dateBucket.field, { types: ['string'] });
        aggregate.measures.forEach((m, i) => {
          if (m.fn === 'count') return;
          if (!m.field) report(file, `${at}/measures/${i}`, `measure "${m.name}" (${m.fn}) needs a field`);
          else field(file, `${at}/measures/${i}/field`, m.field, { types: ['integer', 'number'] });
        });
      }
    }
  },
};

export default aggregatesCheck;
