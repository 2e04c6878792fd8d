/**
 * An error the API answers with: an HTTP status, an i18n key for the message and,
 * for invalid input, the problems per field. The error handler localizes it.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly key: string;
  readonly params: Record<string, unknown>;
  readonly fieldErrors: Array<{ pointer: string; key: string; params: Record<string, unknown> }> | undefined;
  readonly details: unknown;

  constructor(
    statusCode: number,
    key: string,
    options: { params?: Record<string, unknown>; fieldErrors?: ApiError['fieldErrors']; details?: unknown } = {},
  ) {
    super(key);
    this.statusCode = statusCode;
    this.key = key;
    this.params = options.params ?? {};
    this.fieldErrors = options.fieldErrors;
    this.details = options.details;
  }
}

export const badInput = (fieldErrors: NonNullable<ApiError['fieldErrors']>): ApiError =>
  new ApiError(400, 'errors.invalidInput', { fieldErrors });
export const notFound = (): ApiError => new ApiError(404, 'errors.notFound');
export const staleVersion = (current: number): ApiError =>
  new ApiError(409, 'errors.staleVersion', { details: { currentVersion: current } });

/** JSON schema of every error body, for route schemas and the OpenAPI document. */
export const errorBodySchema = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    details: {},
    fieldErrors: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;
