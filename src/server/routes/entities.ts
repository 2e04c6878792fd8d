import type { FastifyPluginAsync, FastifySchemaCompiler } from 'fastify';
import type { JSONSchema7 } from 'json-schema';
import { errorBodySchema } from '../errors.ts';
import { findServerOwnedFields, toResponseSchema } from '../store/record-schema.ts';
import { withServerOwnedFrom } from '../store/server-owned.ts';
import { filterQuerySchema, searchPayloadSchema } from '../store/list-query.ts';
import { createServerAjv } from '../validation.ts';

const systemFieldProperties: Record<string, JSONSchema7> = {
  id: { type: 'integer' },
  version: { type: 'integer' },
  status: { type: 'string' },
  owner: { type: ['string', 'null'] },
  createdAt: { type: 'string' },
  updatedAt: { type: 'string' },
};

const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 503: errorBodySchema };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/**
 * The spec's generic verbs for every entity manifest, under `/api{base}`. Write bodies are
 * validated by the store (the one write path), which also strips server-owned fields; the
 * schemas here document them in OpenAPI and serialize responses.
 */
const entities: FastifyPluginAsync = async (app) => {
  const queryAjv = createServerAjv({ coerceTypes: true });
  // Write bodies are checked by the store; the route must not refuse them first with a
  // different message (for example for a server-owned field the store simply drops).
  const storeValidatesBody: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
    httpPart === 'body' ? ((() => true) as never) : (queryAjv.compile(schema as object) as never);

  for (const def of app.definitions.entities.values()) {
    const base = `/api${def.manifest.base}`;
    const entity = def.id;
    const tags = [def.manifest.subject];
    const record = toResponseSchema(def.schema, systemFieldProperties);
    const writeBody = { ...def.schema, $schema: undefined, title: undefined } as JSONSchema7;
    // Fields the server writes: a client's value is ignored on create, the stored one kept on update.
    const serverOwned = findServerOwnedFields(def.schema).length > 0;
    const updateBody = {
      ...writeBody,
      properties: { ...writeBody.properties, version: { type: 'integer', minimum: 1 } },
      required: [...(writeBody.required ?? []), 'version'],
    };

    app.get(
      `${base}/get/empty`,
      {
        schema: {
          tags,
          summary: `A blank ${entity} with the schema's defaults`,
          response: { 200: toResponseSchema(def.schema, {}) },
        },
      },
      async () => app.store.empty(entity),
    );

    app.get<{ Params: { id: number } }>(
      `${base}/get/:id`,
      {
        schema: {
          tags,
          summary: `One ${entity} by id (404 when the caller may not read it)`,
          params: idParams,
          response: { 200: record, ...errors },
        },
      },
      async (request) => app.store.get(entity, request.params.id, request.actor),
    );

    app.get<{ Params: { id: number } }>(
      `${base}/rights/:id`,
      {
        schema: {
          tags,
          summary: `What the caller may do to this ${entity} now, by its edit rules (schemas/${entity}/edit.json) and the caller's roles: update (and which fields stay read-only), delete`,
          params: idParams,
          response: {
            200: {
              type: 'object',
              required: ['update', 'delete', 'readOnly'],
              properties: {
                update: { type: 'boolean' },
                delete: { type: 'boolean' },
                readOnly: {
                  type: 'array',
                  items: { type: 'string' },
                  description: 'JSON pointers of the fields that may not change (an object covers its fields)',
                },
              },
            },
            ...errors,
          },
        },
      },
      async (request) => app.store.rights(entity, request.params.id, request.actor),
    );

    app.post(
      `${base}/create`,
      {
        validatorCompiler: storeValidatesBody,
        schema: {
          tags,
          summary: `Create a ${entity}: validated against its schema, audited; answers the stored record`,
          body: writeBody,
          response: { 200: record, ...errors },
        },
      },
      async (request) =>
        app.store.create(entity, withServerOwnedFrom(def.schema, request.body), request.actor, {
          locale: request.locale,
        }),
    );

    app.put<{ Params: { id: number } }>(
      `${base}/update/:id`,
      {
        validatorCompiler: storeValidatesBody,
        schema: {
          tags,
          summary: `Replace a ${entity}'s data; \`version\` must be the current one (409 otherwise); a change its edit rules or the caller's roles do not allow is 403 naming each field`,
          params: idParams,
          body: updateBody,
          response: { 200: record, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        // The stored record (flat: its fields beside id and version) gives the values kept. One
        // the caller may not read is not read here: the store's update answers for it (403 or
        // 404, as for any entity), and nothing is written.
        const stored = serverOwned ? await app.store.get(entity, id, request.actor).catch(() => undefined) : undefined;
        const body = serverOwned ? withServerOwnedFrom(def.schema, request.body, stored) : request.body;
        return app.store.update(entity, id, body, request.actor);
      },
    );

    app.delete<{ Params: { id: number }; Querystring: { version?: number } }>(
      `${base}/delete/:id`,
      {
        schema: {
          tags,
          summary: `Delete a ${entity} (with \`version\`, only if unchanged since)`,
          params: idParams,
          querystring: {
            type: 'object',
            additionalProperties: false,
            properties: { version: { type: 'integer', minimum: 1 } },
          },
          response: { 200: { type: 'object', properties: { id: { type: 'integer' } } }, ...errors },
        },
      },
      async (request) => {
        await app.store.remove(entity, request.params.id, request.actor, request.query.version);
        return { id: request.params.id };
      },
    );

    app.post<{ Querystring: Record<string, unknown>; Body: Record<string, unknown> | undefined }>(
      `${base}/list-search`,
      {
        schema: {
          tags,
          summary: `A page of ${entity} records: the grid's filters in the query, paging and sorting in the body (\`page\` is 0-based)`,
          querystring: {
            ...filterQuerySchema(def),
            properties: { ...filterQuerySchema(def).properties, lang: { type: 'string' } },
          },
          body: { ...searchPayloadSchema },
          response: {
            200: {
              type: 'object',
              required: ['list', 'total'],
              properties: {
                list: { type: 'array', items: record },
                total: { type: 'integer' },
                totalCapped: { type: 'boolean', description: 'More rows match than were counted; total is the cap.' },
              },
            },
            ...errors,
          },
        },
      },
      async (request) => {
        // A miss may be a record only another system has yet (manifest remoteSource): the store asks it.
        return app.store.listSearch(entity, request.query, request.body ?? {}, request.actor, {
          locale: request.locale,
          log: request.log,
        });
      },
    );

    app.get<{ Querystring: { keyword: string; limit?: number } }>(
      `${base}/search-by-keyword`,
      {
        schema: {
          tags,
          summary: `Up to \`limit\` ${entity} records whose keyword fields contain \`keyword\`, as id and label`,
          querystring: {
            type: 'object',
            required: ['keyword'],
            additionalProperties: false,
            properties: {
              keyword: { type: 'string', maxLength: 200 },
              limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
              lang: { type: 'string' },
            },
          },
          response: {
            200: {
              type: 'object',
              properties: {
                list: {
                  type: 'array',
                  items: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' } } },
                },
              },
            },
            ...errors,
          },
        },
      },
      async (request) =>
        app.store.searchByKeyword(entity, request.query.keyword, request.query.limit ?? 20, request.actor),
    );
  }
};

export default entities;
