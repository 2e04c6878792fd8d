/**
 * `npm run check` rule of the `checklist` capability: every check is a string field offering the
 * conform and non-conform values, the written fields exist with the right types, every rule
 * decides one of the checks from a numeric field, and its message is a text of every language.
 */
import type { JSONSchema7 } from 'json-schema';
import { createFieldCheck, entitiesWithSchema, type CheckRule } from '../../../definitions/check/context.ts';
import { resolveFieldSchema } from '../../../shared/field-schema.ts';
import type { Checklist } from './evaluate.ts';

/** The values a string field allows (`enum` or `oneOf` of consts). */
function allowedValues(schema: JSONSchema7 | undefined): unknown[] {
  if (!schema) return [];
  if (schema.enum) return schema.enum;
  return (schema.oneOf ?? []).map((o) => (typeof o === 'object' ? o.const : undefined));
}

const checklistCheck: CheckRule = {
  name: 'checklist',
  run(ctx) {
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      const spec = manifest.checklist as Checklist | undefined;
      if (!spec) continue;
      const field = createFieldCheck(ctx.report, schema, schemaFile);
      spec.checks.forEach((pointer, i) => {
        field(file, `/checklist/checks/${i}`, pointer, { types: ['string'] });
        const values = allowedValues(resolveFieldSchema(schema, pointer));
        for (const v of [spec.conform, spec.nonConform])
          if (resolveFieldSchema(schema, pointer) && !values.includes(v))
            ctx.report(file, `/checklist/checks/${i}`, `field "${pointer}" does not offer the value "${v}"`);
      });
      field(file, '/checklist/result', spec.result, { types: ['string'] });
      if (spec.nonConformCount) field(file, '/checklist/nonConformCount', spec.nonConformCount, { types: ['integer'] });
      (spec.rules ?? []).forEach((rule, i) => {
        const at = `/checklist/rules/${i}`;
        if (!spec.checks.includes(rule.check))
          ctx.report(file, `${at}/check`, `"${rule.check}" is not one of the checks`);
        field(file, `${at}/field`, rule.field, { types: ['number', 'integer'] });
        if (typeof rule.limit === 'object' && 'field' in rule.limit)
          field(file, `${at}/limit/field`, rule.limit.field, { types: ['number', 'integer'] });
        if (typeof rule.limit === 'object' && 'byField' in rule.limit)
          field(file, `${at}/limit/byField`, rule.limit.byField, { scalar: true });
        if (rule.when) field(file, `${at}/when/field`, rule.when.field, { scalar: true });
        ctx.useKey(file, `${at}/messageKey`, rule.messageKey);
      });
    }
  },
};

export default checklistCheck;
