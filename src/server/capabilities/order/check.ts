/**
 * `npm run check` rule of the `order` capability: the place field is an integer field of the
 * record schema, the group field, when there is one, a scalar field, and `groupEntity` an entity.
 */
import { createFieldCheck, entitiesWithSchema, type CheckRule } from '../../../definitions/check/context.ts';
import { unknownNameMessage } from '../../../definitions/check/suggest.ts';

const orderCheck: CheckRule = {
  name: 'order',
  run(ctx) {
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      if (!manifest.order) continue;
      const field = createFieldCheck(ctx.report, schema, schemaFile);
      field(file, '/order/field', manifest.order.field, { types: ['integer'] });
      if (manifest.order.group)
        field(file, '/order/group', manifest.order.group, { scalar: true, types: ['integer', 'string'] });
      const target = manifest.order.groupEntity;
      if (target && !ctx.entities.has(target))
        ctx.report(
          file,
          '/order/groupEntity',
          unknownNameMessage('entity', target, 'an entity', [...ctx.entities.keys()]),
        );
      if (target && !manifest.order.group) ctx.report(file, '/order/groupEntity', 'groupEntity needs a group field');
    }
  },
};

export default orderCheck;
