import type { FastifyPluginAsync } from 'fastify';
import { ApiError, badInput, errorBodySchema } from '../../errors.ts';
import { ANNOUNCE_ACTION, MAX_ANNOUNCEMENT_RECIPIENTS } from '../../messenger/document-marking.ts';
import { MESSENGER_SUBJECT } from '../../messenger/counters.ts';
import { valueAt } from '../../../shared/pointer.ts';

/** The template of a note sent by hand: `notifications.manual.text` with the record's label and the message. */
export const MANUAL_TEMPLATE = 'notifications.manual';

interface Note {
  entity: string;
  recordId: number;
  userIds: number[];
  message: string;
}

/**
 * `POST /api/notifications`: a member of staff tells colleagues about a record ("Notify
 * colleagues" on the record page). Allowed to whoever may read the record and holds
 * `announce Message` — the same right as the messenger's document-marking announcement —
 * and only to staff users; each recipient gets an incoming notification (live), the sender
 * sees them in the outgoing box. Anything else is refused and nobody is told.
 */
const sendNote: FastifyPluginAsync = async (app) => {
  const inbox = app.notify.inbox;
  app.post<{ Body: Note }>(
    '/api/notifications',
    {
      schema: {
        tags: ['Notifications'],
        summary: 'Notify colleagues (staff user ids) about a record I may read; needs `announce Message`',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['entity', 'recordId', 'userIds', 'message'],
          properties: {
            entity: { type: 'string', pattern: '^[a-z][a-z0-9-]*$', maxLength: 100 },
            recordId: { type: 'integer', minimum: 1 },
            userIds: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_ANNOUNCEMENT_RECIPIENTS,
              uniqueItems: true,
              items: { type: 'integer', minimum: 1 },
            },
            message: { type: 'string', minLength: 1, maxLength: 1000 },
          },
        },
        response: {
          200: { type: 'object', required: ['notified'], properties: { notified: { type: 'integer' } } },
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      const actor = request.actor;
      if (!actor?.id || !/^[1-9][0-9]*$/.test(actor.id)) throw new ApiError(401, 'errors.sessionExpired');
      if (actor.isOuter || !actor.ability.can(ANNOUNCE_ACTION, MESSENGER_SUBJECT))
        throw new ApiError(403, 'errors.forbidden');
      const { entity, recordId, userIds, message } = request.body;
      if (!app.definitions.entities.has(entity)) throw new ApiError(404, 'errors.notFound');
      // The store decides who may read the record: 404/403 as for any read.
      const record = await app.store.get(entity, recordId, actor);
      const { rows } = await app.db.query<{ id: string }>(
        `SELECT id::text AS id FROM ${app.users.table} WHERE id = ANY($1::bigint[]) AND ${app.users.staffWhere()}`,
        [userIds],
      );
      const staff = new Set(rows.map((r) => r.id));
      const strangers = userIds.map((id, i) => ({ id: String(id), i })).filter(({ id }) => !staff.has(id));
      if (strangers.length)
        throw badInput(
          strangers.map(({ i }) => ({ pointer: `/userIds/${i}`, key: 'validation.staffUser', params: {} })),
        );
      const labelField = app.definitions.entities.get(entity)!.manifest.labelField;
      const labelValue = labelField ? valueAt(record as unknown as Record<string, unknown>, labelField) : undefined;
      const label =
        labelValue === undefined || labelValue === null || labelValue === '' ? String(recordId) : String(labelValue);
      const recipients = userIds.map(String);
      await inbox.write(
        recipients.map((recipientId) => ({
          recipientId,
          senderId: actor.id,
          entity,
          recordId,
          templateKey: MANUAL_TEMPLATE,
          params: { id: recordId, label, message },
        })),
      );
      inbox.published(recipients);
      return { notified: recipients.length };
    },
  );
};

export default sendNote;
