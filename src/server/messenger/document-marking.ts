import type { FastifyInstance } from 'fastify';
import { ApiError, badInput } from '../errors.ts';
import { createServerAjv } from '../validation.ts';
import { toFieldProblems } from '../../shared/validation/field-errors.ts';
import { MESSENGER_SUBJECT } from './counters.ts';

/**
 * The right to announce a document marking to colleagues: the permission `announce Message`
 * (schemas/_access/access.json grants it to the roles that route documents). A permission of
 * its own, because the server cannot tell which document a socket frame is about without
 * naming an entity, and "may read the messenger" is every staff member.
 */
export const ANNOUNCE_ACTION = 'announce';

/** At most this many recipients per announcement: a routing step addresses a few people, a department at most. */
export const MAX_ANNOUNCEMENT_RECIPIENTS = 200;

const bodySchema = {
  type: 'object',
  required: ['userIds', 'documentId'],
  additionalProperties: false,
  properties: {
    userIds: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_ANNOUNCEMENT_RECIPIENTS,
      items: { type: 'integer', minimum: 1 },
    },
    documentId: { type: 'integer', minimum: 1 },
    regNumber: { type: 'string', maxLength: 100 },
    message: { type: 'string', maxLength: 1000 },
  },
} as const;

interface Announcement {
  userIds: number[];
  documentId: number;
  regNumber?: string;
  message?: string;
}

/**
 * `/app/announcementDocumentMarking` (spec §7): a member of staff with `announce Message`
 * tells colleagues — staff user ids only — that a document was marked for them; each gets
 * `{documentId, regNumber?, message?, fromUserId, at}` on `documentMarking` (stored first,
 * replayed like every event). Anything else is refused with an ApiError, which the socket
 * turns into a localized ERROR frame.
 */
export function createDocumentMarking(app: FastifyInstance) {
  const validate = createServerAjv().compile<Announcement>(bodySchema);
  const messenger = app.messenger;
  return async function announce(senderId: string, body: unknown): Promise<{ notified: number }> {
    const actor = await messenger.counters.actorOf(senderId);
    if (!actor?.ability.can(ANNOUNCE_ACTION, MESSENGER_SUBJECT)) throw new ApiError(403, 'errors.forbidden');
    if (!validate(body)) throw badInput(toFieldProblems(validate.errors));
    const ids = [...new Set(body.userIds.map(String))];
    const { rows } = await app.db.query<{ id: string }>(
      `SELECT id::text AS id FROM ${messenger.users.table}
        WHERE id = ANY($1::bigint[]) AND ${app.users.staffWhere()}`,
      [ids.map(Number)],
    );
    const staff = new Set(rows.map((r) => r.id));
    const strangers = body.userIds.map((id, i) => ({ id: String(id), i })).filter(({ id }) => !staff.has(id));
    if (strangers.length)
      throw badInput(strangers.map(({ i }) => ({ pointer: `/userIds/${i}`, key: 'validation.staffUser', params: {} })));
    const { userIds: _recipients, ...about } = body;
    await messenger.emit(ids, 'documentMarking', {
      ...about,
      fromUserId: Number(senderId),
      at: new Date().toISOString(),
    });
    return { notified: ids.length };
  };
}
