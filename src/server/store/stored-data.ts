import type { JSONSchema7 } from 'json-schema';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import { sameJson } from '../../shared/json-diff.ts';
import { getAtPointer } from '../../shared/pointer.ts';
import { ApiError } from '../errors.ts';

/**
 * A write refused by the schema for a value the record already had — stored before the
 * definitions changed, not sent now — is told as such, naming the field by its label: the
 * person pressing a status button has no form where the field's error could show, and
 * "fill all required fields" would not tell them which. Any other refusal is returned as is.
 * @example throw asStoredDataRefusal(error, schema, before.data, data)
 */
export function asStoredDataRefusal(
  error: unknown,
  schema: JSONSchema7,
  stored: Record<string, unknown>,
  written: Record<string, unknown>,
): unknown {
  if (!(error instanceof ApiError) || error.statusCode !== 400 || !error.fieldErrors?.length) return error;
  const fromStore = error.fieldErrors.find((p) =>
    sameJson(getAtPointer(stored, p.pointer), getAtPointer(written, p.pointer)),
  );
  if (!fromStore) return error;
  const title = resolveFieldSchema(schema, fromStore.pointer)?.title;
  return new ApiError(400, 'errors.storedData', {
    params: title ? { fieldKey: title } : { field: fromStore.pointer },
    fieldErrors: error.fieldErrors,
  });
}
