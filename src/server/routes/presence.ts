import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema } from '../errors.ts';

const onlineUser = {
  type: 'object',
  required: ['userId', 'fullName', 'since'],
  properties: {
    userId: { type: 'string' },
    fullName: { type: 'string', description: '"Last First Middle" from the staff card, else the user' },
    department: { type: ['string', 'null'], description: 'The unit of the staff card' },
    region: { type: ['integer', 'null'], description: 'The user’s region (reference list `region`)' },
    since: { type: 'string', format: 'date-time', description: 'When their earliest open socket connected' },
  },
} as const;

/**
 * `GET /api/presence/online`: the staff online now — with a signed-in live socket open on any
 * instance (services/presence.ts) — by name, with department, region and since when. For staff
 * only, within their scope as the users' rows are: a role of scope ALL sees everyone, REGION
 * the employees of its region, OWN only oneself. Outer users 403, visitors 401.
 */
const presence: FastifyPluginAsync = async (app) => {
  const users = app.users;
  app.get(
    '/api/presence/online',
    {
      schema: {
        tags: ['Live'],
        summary: 'Staff online now on the live socket (across instances), within the caller’s scope',
        querystring: { type: 'object', properties: { lang: { type: 'string' } } },
        response: {
          200: {
            type: 'object',
            required: ['list', 'total'],
            properties: { list: { type: 'array', items: onlineUser }, total: { type: 'integer' } },
          },
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => {
      const actor = request.actor;
      if (!actor?.id) throw new ApiError(401, 'errors.sessionExpired');
      if (actor.isOuter) throw new ApiError(403, 'errors.forbidden');
      const online = await app.presence.online();
      const since = new Map(online.map((o) => [o.userId, o.since]));
      const params: unknown[] = [online.map((o) => Number(o.userId)).filter(Number.isSafeInteger)];
      const scope =
        actor.scope === 'ALL'
          ? ''
          : actor.scope === 'REGION'
            ? `AND u.region = $${params.push(actor.region)}`
            : `AND u.id = $${params.push(Number(actor.id))}`;
      const { rows } = await app.db.query<{ id: string; region: number | null }>(
        `SELECT u.id::text AS id, u.region FROM ${users.table} u
          WHERE u.id = ANY($1::bigint[]) AND ${users.staffWhere('u')} ${scope}`,
        params,
      );
      const region = new Map(rows.map((r) => [r.id, r.region === null ? null : Number(r.region)]));
      const cards = (await app.staffDirectory?.byIds(rows.map((r) => Number(r.id)))) ?? [];
      const card = new Map(cards.map((c) => [String(c.id), c]));
      const list = rows
        .map((r) => ({
          userId: r.id,
          fullName: card.get(r.id)?.name ?? '',
          department: card.get(r.id)?.unit ?? null,
          region: region.get(r.id) ?? null,
          since: since.get(r.id)!.toISOString(),
        }))
        // A user whose staff card forbids sign-in is not listed (the directory leaves them out).
        .filter((u) => card.has(u.userId))
        .sort((a, b) => a.fullName.localeCompare(b.fullName) || Number(a.userId) - Number(b.userId));
      return { list, total: list.length };
    },
  );
};

export default presence;
