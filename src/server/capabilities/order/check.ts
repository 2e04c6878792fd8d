/**
 * `npm run check` rule of the `order` capability: the place field is an integer field of the
 * record schema and the group field, when there is one, a scalar field.
 */
import { createFieldCheck, entitiesWithSchema, type CheckRule } from '../../../definitions/check/context.ts';

const orderCheck: CheckRule = {
  name: 'order',
  run(ctx) {
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      if (!manifest.order) continue;
      const field = createFieldCheck(ctx.report, schema, schemaFile);
      field(file, '/order/field', manifest.order.field, { types: ['integer'] });
      if (manifest.order.group)
        field(file, '/order/group', manifest.order.group, { scalar: true, types: ['integer', 'string'] });
    }
  },
};

export default orderCheck;
