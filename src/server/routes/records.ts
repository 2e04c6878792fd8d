import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema, notFound } from '../errors.ts';
import { objectReply } from '../reply-schemas.ts';
import { normalizeSortField } from '../store/list-query.ts';

/** One old → new change of an audit row (src/shared/audit.ts); a value is any JSON value. */
const auditChangeSchema = {
  type: 'object',
  required: ['pointer'],
  properties: {
    pointer: { type: 'string' },
    old: {},
    new: {},
    truncated: { type: 'array', items: { type: 'string', enum: ['old', 'new'] } },
    redacted: { type: 'boolean' },
  },
} as const;

/** One row of a record's audit trail (src/shared/audit.ts). */
const auditEntrySchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    at: { type: 'string' },
    actor: { type: ['string', 'null'] },
    actorName: { type: ['string', 'null'] },
    action: { type: 'string' },
    changed: { type: 'array', items: { type: 'string' } },
    note: { type: 'string' },
    diff: { type: 'array', items: auditChangeSchema },
  },
} as const;

/**
 * Read-only views of a record beside the generic verbs: its audit history and a lookup by
 * a unique field (a company by its tax ID, for a form that fills itself in). Both go through
 * the store (`store.audit`, `store.get`), so they show only what the caller may read.
 */
const records: FastifyPluginAsync = async (app) => {
  for (const def of app.definitions.entities.values()) {
    const base = `/api${def.manifest.base}`;
    const entity = def.id;
    const table = app.tables.get(entity)!;
    const tags = [def.manifest.subject];

    app.get<{ Params: { id: number } }>(
      `${base}/audit/:id`,
      {
        schema: {
          tags,
          summary:
            'Who changed the record, when, which fields, and their old → new values (without what the caller may not see)',
          params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
          response: { 200: { type: 'object', properties: { list: { type: 'array', items: auditEntrySchema } } } },
        },
      },
      async (request) => app.store.audit(entity, request.params.id, request.actor),
    );

    if (!def.manifest.unique?.length) continue;
    app.get<{ Querystring: { field: string; value: string } }>(
      `${base}/find-by`,
      {
        schema: {
          tags,
          summary: 'The record whose unique field has this value, or null',
          querystring: {
            type: 'object',
            required: ['field', 'value'],
            additionalProperties: false,
            properties: {
              field: { type: 'string', maxLength: 100 },
              value: { type: 'string', maxLength: 200 },
              lang: { type: 'string' },
            },
          },
          response: {
            200: objectReply('The record (as GET …/get/{id} answers it), or null', {
              record: { type: ['object', 'null'], additionalProperties: true },
            }),
            400: errorBodySchema,
          },
        },
      },
      async (request) => {
        const pointer = normalizeSortField(request.query.field);
        if (!def.manifest.unique?.includes(pointer))
          throw new ApiError(400, 'errors.badFilter', { params: { name: request.query.field } });
        const column = table.columns.get(pointer)!;
        try {
          // Looking up by a field hidden from the caller (their roles' hiddenFields) would tell its
          // values: the store refuses it (403), and the record is absent for them.
          app.store.readableWhere(entity, {}, request.actor, [pointer]);
          const { rows } = await app.db.query<{ id: number }>(
            `SELECT id FROM ${table.table} WHERE ${column.column} = $1::${column.type} LIMIT 1`,
            [request.query.value],
          );
          return { record: rows[0] ? await app.store.get(entity, rows[0].id, request.actor) : null };
        } catch (error) {
          // A record the caller may not read is reported as absent, not as forbidden.
          if (error instanceof ApiError && [401, 403, 404].includes(error.statusCode)) return { record: null };
          throw error;
        }
      },
    );
  }
  void notFound;
};

export default records;
