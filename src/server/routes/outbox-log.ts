import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema, notFound } from '../errors.ts';
import { BUSINESS_TIME_ZONE } from '../../shared/time-zone.ts';
import { sqlText } from '../../shared/pointer.ts';
import { maskContact } from '../../shared/contact-mask.ts';

/** Rows per page at most. */
const MAX_PAGE = 100;

const entry = {
  type: 'object',
  required: ['id', 'recipient', 'text', 'template', 'status', 'attempts', 'createdAt', 'recordId'],
  properties: {
    id: { type: 'integer' },
    recipient: { type: 'string', description: 'Masked: +998 90 *** ** 67, c***@example.uz' },
    text: { type: 'string' },
    template: { type: 'string', description: 'The stored template’s code, or the i18n key of the text' },
    status: { enum: ['pending', 'sent', 'failed', 'undeliverable'] },
    attempts: { type: 'integer' },
    lastError: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    sentAt: { type: ['string', 'null'], format: 'date-time' },
    recordId: { type: 'integer' },
    recordLabel: { type: ['string', 'null'], description: 'The record’s labelField' },
  },
} as const;

interface Query {
  channel: 'sms' | 'email';
  status?: string;
  from?: string;
  to?: string;
  page?: number;
  itemsPerPage?: number;
}

/**
 * `GET /api/outbox/{entity}?channel=sms&status=&from=&to=&page=&itemsPerPage=`: the messages the
 * portal sent about an entity's records (the outbox rows of transition notices, newest first) —
 * masked recipient, text, template, delivery status (pending / sent / failed / undeliverable),
 * attempts, last error, the record — for staff who may read the entity, and only about the
 * records they may read (a regional employee: their region's). `from`/`to` are days in Tashkent.
 * Outer users 403, visitors 401. Read-only; names no entity.
 */
const outboxLog: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { entity: string }; Querystring: Query }>(
    '/api/outbox/:entity',
    {
      schema: {
        tags: ['Notifications'],
        summary: 'Messages sent about the records of an entity (the outbox), within the caller’s scope',
        params: {
          type: 'object',
          required: ['entity'],
          properties: { entity: { type: 'string', pattern: '^[a-z][a-z0-9-]*$', maxLength: 100 } },
        },
        querystring: {
          type: 'object',
          required: ['channel'],
          additionalProperties: false,
          properties: {
            channel: { enum: ['sms', 'email'] },
            status: { enum: ['pending', 'sent', 'failed', 'undeliverable'] },
            from: { type: 'string', format: 'date' },
            to: { type: 'string', format: 'date' },
            page: { type: 'integer', minimum: 0, maximum: 100_000 },
            itemsPerPage: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
            lang: { type: 'string', maxLength: 20 },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['list', 'total'],
            properties: { list: { type: 'array', items: entry }, total: { type: 'integer' } },
          },
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      const def = app.definitions.entities.get(request.params.entity);
      const table = def && app.tables.get(def.id);
      if (!def || !table) throw notFound();
      const actor = request.actor;
      if (actor.id !== null && actor.isOuter) throw new ApiError(403, 'errors.forbidden');
      // 401/403 for whoever may not read the entity; the rows they may read otherwise.
      const scoped = app.store.readableWhere(def.id, {}, actor);
      const { channel, status, from, to } = request.query;
      const params: unknown[] = [...scoped.params, def.id, channel];
      const where = [`o.entity = $${scoped.params.length + 1}`, `o.channel = $${scoped.params.length + 2}`];
      const param = (value: unknown) => `$${params.push(value)}`;
      if (status) where.push(`o.status = ${param(status)}`);
      if (from) where.push(`o.created_at >= (${param(from)}::date::timestamp AT TIME ZONE '${BUSINESS_TIME_ZONE}')`);
      if (to) where.push(`o.created_at < ((${param(to)}::date + 1)::timestamp AT TIME ZONE '${BUSINESS_TIME_ZONE}')`);
      where.push(`o.record_id IN (SELECT id FROM ${table.table} ${scoped.where})`);
      const size = request.query.itemsPerPage ?? 20;
      const offset = (request.query.page ?? 0) * size;
      const label = def.manifest.labelField ? sqlText(def.manifest.labelField, 'r.data') : 'NULL';
      const page = await app.db.query<Record<string, unknown>>(
        `SELECT o.id::int AS id, o.channel, o.recipient, o.body AS text, o.template_key AS template, o.status,
             o.attempts::int AS attempts, o.last_error AS "lastError",
             to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
             to_char(o.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "sentAt",
             o.record_id::int AS "recordId", (SELECT ${label} FROM ${table.table} r WHERE r.id = o.record_id) AS "recordLabel"
           FROM outbox o WHERE ${where.join(' AND ')} ORDER BY o.id DESC LIMIT ${size} OFFSET ${offset}`,
        params,
      );
      const count = await app.db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM outbox o WHERE ${where.join(' AND ')}`,
        params,
      );
      return {
        list: page.rows.map(({ channel: c, recipient, ...row }) => ({
          ...row,
          recipient: maskContact(String(c), String(recipient)),
        })),
        total: count.rows[0]!.total,
      };
    },
  );
};

export default outboxLog;
