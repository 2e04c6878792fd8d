/**
 * `npm run check` rule of the `chain` capability: the parent field is an integer field, the
 * link field a string field and the date field a string (date) field of the record schema.
 */
import { createFieldCheck, entitiesWithSchema, type CheckRule } from '../../../definitions/check/context.ts';

const chainCheck: CheckRule = {
  name: 'chain',
  run(ctx) {
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      const chain = manifest.chain;
      if (!chain) continue;
      const field = createFieldCheck(ctx.report, schema, schemaFile);
      field(file, '/chain/parentField', chain.parentField, { types: ['integer'] });
      if (chain.linkField) field(file, '/chain/linkField', chain.linkField, { types: ['string'] });
      if (chain.dateField) field(file, '/chain/dateField', chain.dateField, { types: ['string'] });
    }
  },
};

export default chainCheck;
