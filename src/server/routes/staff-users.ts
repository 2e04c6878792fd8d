import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema } from '../errors.ts';

const staffUser = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, unit: { type: ['string', 'null'] } },
} as const;

/**
 * `GET /api/staff-users?search=…` and `?ids=1,2`: the staff picker's search and the names
 * behind stored ids (`staffUser` fields) — staff users who may sign in, as "Last First Middle"
 * with their unit. For signed-in staff only: outer users and visitors are refused.
 */
const staffUsers: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: { search?: string; ids?: string; limit?: number } }>(
    '/api/staff-users',
    {
      schema: {
        tags: ['Staff'],
        summary: 'Staff users by name (the executor / signer picker) or by id',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            search: { type: 'string', maxLength: 200 },
            ids: { type: 'string', pattern: '^\\d{1,12}(,\\d{1,12}){0,99}$' },
            limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
            lang: { type: 'string' },
          },
        },
        response: {
          200: { type: 'object', properties: { list: { type: 'array', items: staffUser } } },
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => {
      const actor = request.actor;
      if (!actor.id) throw new ApiError(401, 'errors.unauthorized');
      if (actor.isOuter) throw new ApiError(403, 'errors.forbidden');
      const directory = app.staffDirectory;
      if (!directory) return { list: [] };
      const { search, ids, limit = 20 } = request.query;
      if (ids) return { list: await directory.byIds(ids.split(',').map(Number)) };
      return { list: await directory.search(search ?? '', limit) };
    },
  );
};

export default staffUsers;
