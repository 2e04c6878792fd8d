/**
 * The form's validator: rjsf's ajv8 validator with the portal's formats and keywords, so
 * the client checks exactly what the server checks (src/shared/validation/vocabulary.ts).
 */
import { customizeValidator } from '@rjsf/validator-ajv8';
import { portalFormats, portalKeywords } from '../../shared/validation/vocabulary.ts';

/** One validator for every entity form (ajv caches each compiled schema inside it). */
export const portalValidator = customizeValidator({
  customFormats: portalFormats,
  ajvOptionsOverrides: { keywords: portalKeywords },
});
