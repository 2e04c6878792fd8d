/**
 * `npm run check` rule of the `registerFromFile` capability: the file field is a top-level
 * file list of the record schema and every form field names a scalar field of it.
 */
import { createFieldCheck, entitiesWithSchema, type CheckRule } from '../../../definitions/check/context.ts';
import { resolveFieldSchema } from '../../../shared/field-schema.ts';

const registerFromFileCheck: CheckRule = {
  name: 'registerFromFile',
  run(ctx) {
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      const spec = manifest.registerFromFile;
      if (!spec) continue;
      const field = createFieldCheck(ctx.report, schema, schemaFile);
      field(file, '/registerFromFile/fileField', spec.fileField, { types: ['array'] });
      const target = resolveFieldSchema(schema, spec.fileField) as { file?: boolean } | undefined;
      if (target && (!target.file || spec.fileField.split('/').length !== 2))
        ctx.report(file, '/registerFromFile/fileField', `field "${spec.fileField}" is not a top-level file list`);
      for (const [name, pointer] of Object.entries(spec.fields))
        field(file, `/registerFromFile/fields/${name}`, pointer, { scalar: true });
    }
  },
};

export default registerFromFileCheck;
