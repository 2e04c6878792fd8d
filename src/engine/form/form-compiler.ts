/**
 * The form's JSON Schema compiler: rjsf's ajv8 validator with the portal's formats and
 * keywords (src/shared/validation/vocabulary.ts, the server's too). The browser loads it only
 * for a schema the build did not know (a pasted playground schema, one composed at run time
 * such as a form without the fields its reader may not see, a questionnaire from the API);
 * every other form validates with code generated at build time by the same options
 * (scripts/form-validators.ts).
 */
import type { ValidatorType } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { portalFormats, portalKeywords } from '../../shared/validation/vocabulary.ts';

/**
 * rjsf's validator options, shared by this compiler and the build's generated code. The schemas
 * themselves are not checked against the JSON Schema meta-schema here (`validateSchema:
 * false`): `npm run check` and the server check every definition already.
 */
export const portalValidatorOptions = {
  customFormats: portalFormats,
  ajvOptionsOverrides: { keywords: portalKeywords, validateSchema: false },
};

/** A new compiling validator (ajv caches each compiled schema inside it). */
export const createFormCompiler = (): ValidatorType => customizeValidator(portalValidatorOptions);
