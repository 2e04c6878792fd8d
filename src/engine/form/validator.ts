/**
 * The form's validator: rjsf's ajv8 validator with the portal's formats and keywords, so
 * the client checks exactly what the server checks (src/shared/validation/vocabulary.ts).
 */
import type { ValidatorType } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { portalFormats, portalKeywords } from '../../shared/validation/vocabulary.ts';

let inner: ValidatorType | undefined;

/**
 * The ajv instance, made on first use rather than when the form's chunk loads: a page that
 * only shows a form does not pay for it before anyone types. The schemas themselves are not
 * checked against the JSON Schema meta-schema here (`validateSchema: false`) — compiling the
 * meta-schema was most of the cost, and `npm run check` and the server check every
 * definition already.
 */
const ajv = (): ValidatorType =>
  (inner ??= customizeValidator({
    customFormats: portalFormats,
    ajvOptionsOverrides: { keywords: portalKeywords, validateSchema: false },
  }));

/** One validator for every entity form (ajv caches each compiled schema inside it). */
export const portalValidator: ValidatorType = {
  validateFormData: (formData, schema, customValidate, transformErrors, uiSchema) =>
    ajv().validateFormData(formData, schema, customValidate, transformErrors, uiSchema),
  isValid: (schema, formData, rootSchema) => ajv().isValid(schema, formData, rootSchema),
  rawValidation: (schema, formData) => ajv().rawValidation(schema, formData),
  reset: () => ajv().reset?.(),
};
