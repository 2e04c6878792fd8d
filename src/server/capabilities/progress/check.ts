/**
 * `npm run check` rule of the `progress` capability: the percentage, done and plan fields
 * exist in the record schema and are numbers.
 */
import { createFieldCheck, entitiesWithSchema, type CheckRule } from '../../../definitions/check/context.ts';

const progressCheck: CheckRule = {
  name: 'progress',
  run(ctx) {
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      if (!manifest.progress) continue;
      const field = createFieldCheck(ctx.report, schema, schemaFile);
      for (const key of ['field', 'done', 'plan'] as const)
        field(file, `/progress/${key}`, manifest.progress[key], { types: ['integer', 'number'] });
      const start = manifest.progress.yearStart;
      if (start) {
        field(file, '/progress/yearStart/year', start.year, { types: ['integer'] });
        field(file, '/progress/yearStart/field', start.field, { types: ['string'] });
      }
    }
  },
};

export default progressCheck;
