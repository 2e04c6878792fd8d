import type { FastifySchemaCompiler } from 'fastify';
import { createServerAjv } from './validation.ts';

/**
 * Schemas that describe routes in the OpenAPI document (/api/docs/json) without changing
 * what they do. Reply objects are open (`additionalProperties: true`): a listed property
 * documents the reply, an unlisted one is still sent — fast-json-stringify would drop it
 * from a closed schema.
 */
type Schema = Record<string, unknown>;

/** An object reply: what it is, and the properties worth naming. */
export const objectReply = (description: string, properties: Record<string, Schema> = {}): Schema => ({
  description,
  type: 'object',
  additionalProperties: true,
  properties,
});

/** `{ok: true}`: done, nothing more to say. */
export const okReply: Schema = objectReply('Done', { ok: { type: 'boolean' } });

/** `{list: [...], total}`: a page of rows described by `item`. */
export const pageReply = (description: string, item: Schema = { type: 'object', additionalProperties: true }): Schema =>
  objectReply(description, { list: { type: 'array', items: item }, total: { type: 'integer' } });

/** A file streamed as it is stored (its own content type). */
export const fileReply = (description: string): Schema => ({ description, type: 'string', format: 'binary' });

/** A redirect (302) to `where`. */
export const redirectReply = (where: string): Schema => ({
  description: `Redirect to ${where} (Location header)`,
  type: 'null',
});

/** One file of a multipart body. */
export const filePart = (description: string): Schema => ({ description, type: 'string', format: 'binary' });

/**
 * A `multipart/form-data` body as OpenAPI shows it. Fastify does not validate it (the body
 * of a multipart request is read part by part by the handler): pair it with
 * {@link handlerReadsBody}.
 */
export const multipartBody = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  content: { 'multipart/form-data': { schema: { type: 'object', properties, required } } },
});

/**
 * The validator compiler of a route whose handler reads the body itself — the store checks
 * record bodies with its own messages, multipart bodies arrive part by part — so the body
 * schema only documents it; params, query and headers are checked as everywhere (coerced).
 */
export function handlerReadsBody(): FastifySchemaCompiler<unknown> {
  const ajv = createServerAjv({ coerceTypes: true });
  return ({ schema, httpPart }) =>
    httpPart === 'body' ? ((() => true) as never) : (ajv.compile(schema as object) as never);
}
