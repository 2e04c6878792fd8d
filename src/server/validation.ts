import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { addPortalVocabulary } from '../shared/validation/vocabulary.ts';

/**
 * Ajv as the server uses it: all errors, formats, the portal's vocabulary, no silent
 * changes to input (no coercion, no removal of unknown properties, no defaults) unless
 * `coerceTypes` is asked for (query strings arrive as text).
 */
export function createServerAjv(options: { coerceTypes?: boolean } = {}): Ajv {
  const opts: Options = {
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    coerceTypes: options.coerceTypes ? 'array' : false,
    useDefaults: false,
    removeAdditional: false,
  };
  return addPortalVocabulary(addFormats(new Ajv(opts)));
}
