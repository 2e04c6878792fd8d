/**
 * `npm run check` rule of the `merge` capability: every field whose rows a merge
 * concatenates (`merge.arrays`) is an array field of the record schema.
 */
import { createFieldCheck, entitiesWithSchema, type CheckRule } from '../../../definitions/check/context.ts';

const mergeCheck: CheckRule = {
  name: 'merge',
  run(ctx) {
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      if (!manifest.merge) continue;
      const field = createFieldCheck(ctx.report, schema, schemaFile);
      manifest.merge.arrays.forEach((p, i) => field(file, `/merge/arrays/${i}`, p, { types: ['array'] }));
    }
  },
};

export default mergeCheck;
