/**
 * `npm run check` rule of the `registryImport` capability: the method exists and answers a
 * table; every parameter given is one of the method's and every required one is given; a
 * `distinct` parameter and every imported field are scalar top-level fields of the entity, a
 * `code` field refers to a reference list; each row field named is a field of the method's rows;
 * the key fields are imported fields.
 */
import { createFieldCheck, entitiesWithSchema, escape, type CheckRule } from '../../../definitions/check/context.ts';
import { unknownNameMessage } from '../../../definitions/check/suggest.ts';
import type { IntegrationMethod } from '../../../generated/meta.ts';
import { resolveFieldSchema } from '../../../shared/field-schema.ts';

type Schema = { properties?: Record<string, Schema>; items?: Schema; type?: unknown };

const registryImportCheck: CheckRule = {
  name: 'registryImport',
  run(ctx) {
    const { report } = ctx;
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      const spec = manifest.registryImport;
      if (!spec) continue;
      const field = createFieldCheck(report, schema, schemaFile);
      const methodFile = `schemas/_integrations/${spec.integration}.json`;
      const method = ctx.sources.get(methodFile)?.json as IntegrationMethod | undefined;
      if (!method) {
        report(file, '/registryImport/integration', `method ${methodFile} does not exist`);
        continue;
      }
      if (method.result.view !== 'table' || !method.result.rows) {
        report(
          file,
          '/registryImport/integration',
          `${spec.integration} does not answer a table (result.view "table" with rows)`,
        );
        continue;
      }
      const names = Object.keys(method.params.properties);
      for (const [name, value] of Object.entries(spec.params ?? {})) {
        const at = `/registryImport/params/${escape(name)}`;
        if (!names.includes(name))
          report(file, at, unknownNameMessage('parameter', name, `a parameter of ${spec.integration}`, names));
        if (typeof value === 'object' && 'distinct' in value)
          field(file, `${at}/distinct`, value.distinct, { scalar: true });
      }
      for (const name of method.params.required ?? [])
        if (!(name in (spec.params ?? {})))
          report(file, '/registryImport/params', `${spec.integration} needs the parameter "${name}"`);
      let rows: Schema | undefined = method.result.schema as Schema;
      for (const segment of method.result.rows.split('/').slice(1)) rows = rows?.properties?.[segment];
      const rowFields = Object.keys(rows?.items?.properties ?? {});
      for (const [pointer, from] of Object.entries(spec.fields)) {
        const at = `/registryImport/fields/${escape(pointer)}`;
        field(file, at, pointer, { scalar: true });
        const source = typeof from === 'string' ? from : from.from;
        if (!rowFields.includes(source))
          report(file, at, unknownNameMessage('row field', source, `a field of ${spec.integration}'s rows`, rowFields));
        if (
          typeof from === 'object' &&
          !(resolveFieldSchema(schema, pointer) as { reference?: unknown } | undefined)?.reference
        )
          report(file, at, `"${pointer}" refers to no reference list, so a code cannot be turned into its item`);
      }
      spec.key.forEach((pointer, i) => {
        if (!(pointer in spec.fields))
          report(file, `/registryImport/key/${i}`, `"${pointer}" is not among the imported fields`);
      });
    }
  },
};

export default registryImportCheck;
