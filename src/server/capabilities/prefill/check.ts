/**
 * `npm run check` rule of the `prefill` capability: the source entity exists, `by` is an
 * integer field of the entity, and each copied pair names a field of the entity and a field
 * of the source of the same type.
 */
import { createFieldCheck, entitiesWithSchema, escape, type CheckRule } from '../../../definitions/check/context.ts';
import { resolveFieldSchema, scalarType } from '../../../shared/field-schema.ts';

const prefillCheck: CheckRule = {
  name: 'prefill',
  run(ctx) {
    const { report } = ctx;
    const all = [...entitiesWithSchema(ctx)];
    for (const { manifest, file, schema, schemaFile } of all) {
      manifest.prefill?.forEach((rule, i) => {
        const at = `/prefill/${i}`;
        const field = createFieldCheck(report, schema, schemaFile);
        field(file, `${at}/by`, rule.by, { types: ['integer'] });
        const source = all.find((e) => e.manifest.id === rule.from);
        if (!source) return report(file, `${at}/from`, `entity "${rule.from}" does not exist (or has no valid schema)`);
        const sourceField = createFieldCheck(report, source.schema, source.schemaFile);
        for (const [target, from] of Object.entries(rule.copy)) {
          field(file, `${at}/copy/${escape(target)}`, target);
          sourceField(file, `${at}/copy/${escape(target)}`, from);
          const a = resolveFieldSchema(schema, target);
          const b = resolveFieldSchema(source.schema, from);
          if (a && b && scalarType(a) !== scalarType(b))
            report(
              file,
              `${at}/copy/${escape(target)}`,
              `field "${target}" and "${rule.from}" field "${from}" differ in type`,
            );
        }
      });
    }
  },
};

export default prefillCheck;
