/**
 * Validation messages of the form, in the server's words: ajv errors become the same
 * `validation.*` keys `toFieldProblems` gives the API's 400 replies, and a 400's field errors
 * land on their fields through rjsf's `extraErrors`.
 */
import type { ErrorObject } from 'ajv';
import type { ErrorSchema, RJSFValidationError } from '@rjsf/utils';
import { toFieldProblems } from '../../shared/validation/field-errors.ts';
import { encodeMessage } from './messages.ts';
import { pathToPointer, pointerToPath } from './pointer.ts';
import { objectAt } from '../../shared/pointer.ts';

/** rjsf's dotted property (`.customer.pnfl`, or `applicantType` for a missing root field) as a path. */
const propertySegments = (property: string | undefined): string[] =>
  (property ?? '').split('.').filter((s) => s !== '');

/**
 * The JSON pointer of an rjsf error's property.
 * @example propertyToPointer('.participants.0.name') // '/participants/0/name'
 */
export const propertyToPointer = (property: string | undefined): string => pathToPointer(propertySegments(property));

/**
 * rjsf's `transformErrors`: one error per field (the first, most specific one, as on the
 * server), its message an encoded `validation.*` key that the field template translates.
 * Wrapper errors (`if`, `anyOf`, …) that only say "a sub-schema failed" are dropped.
 * @example <Form transformErrors={localizeErrors} … />
 */
export function localizeErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  const seen = new Set<string>();
  const out: RJSFValidationError[] = [];
  for (const error of errors) {
    const segments = propertySegments(error.property);
    const params = (error.params ?? {}) as Record<string, unknown>;
    // rjsf already appended the missing property to `property`; ajv's instancePath has not.
    const owner = 'missingProperty' in params ? segments.slice(0, -1) : segments;
    const ajvError = {
      keyword: error.name ?? '',
      instancePath: pathToPointer(owner),
      schemaPath: error.schemaPath ?? '',
      params,
      message: error.message,
    } as ErrorObject;
    const [problem] = toFieldProblems([ajvError]);
    if (!problem) continue;
    const field = segments.join('.');
    if (seen.has(field)) continue;
    seen.add(field);
    const message = encodeMessage(problem.key, problem.params);
    out.push({ ...error, message, stack: `${problem.pointer} ${message}` });
  }
  return out;
}

/**
 * rjsf `extraErrors` from a 400's `{pointer: message}` field errors.
 * @example toErrorSchema({ '/customer/pnfl': 'Enter a valid personal ID' })
 * // { customer: { pnfl: { __errors: ['Enter a valid personal ID'] } } }
 */
export function toErrorSchema(fieldErrors: Record<string, string> | undefined): ErrorSchema {
  const root: ErrorSchema = {};
  for (const [pointer, message] of Object.entries(fieldErrors ?? {})) {
    const node = objectAt(root as Record<string, unknown>, pointer);
    const list = (node.__errors ??= []) as string[];
    list.push(message);
  }
  return root;
}
