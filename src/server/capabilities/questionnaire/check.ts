/**
 * `npm run check` rule of the `questionnaire` capability: the fields it names exist in the
 * record schema with fitting types (the questions an array, the open dates strings, the pass
 * mark a number, the results switch a boolean), and its responses entity exists with an
 * integer parent field and the `answers` array the plugin stores.
 */
import { resolveFieldSchema, scalarType } from '../../../shared/field-schema.ts';
import { createFieldCheck, entitiesWithSchema, type CheckRule } from '../../../definitions/check/context.ts';

const questionnaireCheck: CheckRule = {
  name: 'questionnaire',
  run(ctx) {
    const { report } = ctx;
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      const q = manifest.questionnaire;
      if (!q) continue;
      const field = createFieldCheck(report, schema, schemaFile);
      field(file, '/questionnaire/questionsField', q.questionsField, { types: ['array'] });
      field(file, '/questionnaire/openFromField', q.openFromField, { types: ['string'] });
      field(file, '/questionnaire/openToField', q.openToField, { types: ['string'] });
      if (q.passMarkField)
        field(file, '/questionnaire/passMarkField', q.passMarkField, { types: ['integer', 'number'] });
      if (q.showResultsField)
        field(file, '/questionnaire/showResultsField', q.showResultsField, { types: ['boolean'] });
      q.publicFields.forEach((p, i) => field(file, `/questionnaire/publicFields/${i}`, p));

      const responses = q.responses;
      const target = ctx.entities.get(responses.entity);
      if (!target) report(file, '/questionnaire/responses/entity', `entity "${responses.entity}" does not exist`);
      else if (target.schema) {
        const parent = resolveFieldSchema(target.schema, responses.parentField);
        if (!parent || scalarType(parent) !== 'integer') {
          report(
            file,
            '/questionnaire/responses/parentField',
            `field "${responses.parentField}" must be an integer field of ${responses.entity}`,
          );
        }
        // The plugin stores {<parent>, answers, score?, maxScore?, passed?}: the schema must take them.
        if (!resolveFieldSchema(target.schema, '/answers')) {
          report(file, '/questionnaire/responses/entity', `${responses.entity} must have an "answers" array`);
        }
      }
    }
  },
};

export default questionnaireCheck;
