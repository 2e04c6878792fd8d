import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema } from '../errors.ts';
import { loadDefinitionSources, type DefinitionSources } from '../../definitions/sources.ts';
import { checkPlayground, PLAYGROUND_ACTION, PLAYGROUND_SUBJECT } from '../../definitions/check/playground.ts';

const problem = {
  type: 'object',
  required: ['file', 'pointer', 'message'],
  properties: { file: { type: 'string' }, pointer: { type: 'string' }, message: { type: 'string' } },
} as const;

/**
 * `POST /api/playground/check {schema, ui?}`: the admin playground's check of a pasted record
 * schema and form, by the rules `npm run check` applies to an entity's `schema.json` and
 * `ui.json` (definitions/check/playground.ts) — each problem with its file, JSON pointer and a
 * message in plain words; `{problems: []}` when the check would pass. Needs `use Playground`
 * (the admin's `manage all`); nothing is stored.
 */
const playground: FastifyPluginAsync = async (app) => {
  // The repository's definitions as the check reads them (meta-schemas, reference lists,
  // locales), read once, on the first check.
  let sources: Promise<DefinitionSources> | undefined;
  app.post<{ Body: { schema: unknown; ui?: unknown } }>(
    '/api/playground/check',
    {
      schema: {
        tags: ['Administration'],
        summary: 'Checks a record schema and form UI as npm run check would (the admin playground)',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['schema'],
          properties: { schema: {}, ui: {} },
        },
        response: {
          200: { type: 'object', properties: { problems: { type: 'array', items: problem } } },
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => {
      const actor = request.actor;
      if (!actor.id) throw new ApiError(401, 'errors.unauthorized');
      if (actor.isOuter || !actor.ability.can(PLAYGROUND_ACTION, PLAYGROUND_SUBJECT))
        throw new ApiError(403, 'errors.forbidden');
      sources ??= loadDefinitionSources(app.config.root).then((r) => r.sources);
      return { problems: checkPlayground(await sources, request.body) };
    },
  );
};

export default playground;
