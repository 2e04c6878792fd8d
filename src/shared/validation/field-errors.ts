import type { ErrorObject } from 'ajv';
import { portalFormats } from './formats.ts';
import { escapeSegment } from '../pointer.ts';

/** One localizable problem with one field. */
export interface FieldProblem {
  /** JSON pointer of the field (`/customer/pnfl`). */
  pointer: string;
  /** i18n key of the message (`validation.required`). */
  key: string;
  params: Record<string, unknown>;
}

const TEXT_FORMATS = new Set(['email', 'date', ...Object.keys(portalFormats)]);
const LIMIT_KEYWORDS = new Set(['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems']);
// Errors that only say "a sub-schema failed"; the sub-schema's own error says what.
const WRAPPERS = new Set(['if', 'anyOf', 'allOf', 'not']);

/**
 * Turns ajv errors into one problem per field, each naming an i18n key of the
 * `validation.*` catalogue. Used by the server for 400 replies and by the client to
 * localize rjsf's messages, so both say the same thing.
 */
export function toFieldProblems(errors: ErrorObject[] | null | undefined): FieldProblem[] {
  const byPointer = new Map<string, FieldProblem>();
  for (const e of errors ?? []) {
    if (WRAPPERS.has(e.keyword)) continue;
    let pointer = e.instancePath;
    let key = 'validation.type';
    const params: Record<string, unknown> = {};
    switch (e.keyword) {
      case 'required':
        pointer += `/${escapeSegment(String(e.params.missingProperty))}`;
        key = 'validation.required';
        break;
      case 'additionalProperties':
        pointer += `/${escapeSegment(String(e.params.additionalProperty))}`;
        key = 'validation.unknownField';
        break;
      case 'format':
        key = TEXT_FORMATS.has(String(e.params.format)) ? `validation.${String(e.params.format)}` : 'validation.format';
        break;
      case 'pattern':
        key = 'validation.format';
        break;
      case 'type':
        key = e.params.type === 'integer' ? 'validation.integer' : 'validation.type';
        break;
      case 'enum':
      case 'const':
      case 'oneOf':
        key = 'validation.enum';
        break;
      case 'positive':
      case 'positiveNotZero':
      case 'exclusiveMinimum':
        key = e.keyword === 'positive' ? 'validation.positive' : 'validation.positiveNotZero';
        break;
      case 'minProperties':
        // An object whose fields are each optional but one is needed (a query by any of them).
        key = 'validation.atLeastOne';
        break;
      default:
        if (LIMIT_KEYWORDS.has(e.keyword)) {
          key = `validation.${e.keyword}`;
          params.limit = e.params.limit;
        }
    }
    // The first error for a field is the most specific one; "oneOf" after "const" adds nothing.
    if (!byPointer.has(pointer)) byPointer.set(pointer, { pointer, key, params });
  }
  return [...byPointer.values()];
}
