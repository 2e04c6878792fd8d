import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema } from '../../errors.ts';
import { placeholderNames } from '../../../shared/message-template.ts';
import type { CapabilityOptions } from '../registry.ts';

/**
 * `GET /api{base}/placeholders?entity=<id>` for entities whose manifest declares
 * `messageTemplates`: the placeholder names a template for that entity may use (the form's hint;
 * the store refuses others when a template is saved — store/message-templates.ts). For whoever
 * may read the templates.
 */
const messageTemplates: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    app.get<{ Querystring: { entity: string } }>(
      `/api${def.manifest.base}/placeholders`,
      {
        schema: {
          tags: [def.manifest.subject],
          summary: `The placeholder names a ${def.id} may use for an entity`,
          querystring: {
            type: 'object',
            required: ['entity'],
            additionalProperties: false,
            properties: { entity: { type: 'string', pattern: '^[a-z][a-z0-9-]*$', maxLength: 100 } },
          },
          response: {
            200: {
              type: 'object',
              required: ['list'],
              properties: { list: { type: 'array', items: { type: 'string' } } },
            },
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request) => {
        const actor = request.actor;
        if (!actor.ability.can('read', def.manifest.subject))
          throw actor.id === null ? new ApiError(401, 'errors.unauthorized') : new ApiError(403, 'errors.forbidden');
        const target = app.definitions.entities.get(request.query.entity);
        if (!target) throw new ApiError(404, 'errors.notFound');
        return { list: placeholderNames(target.schema) };
      },
    );
  }
};

export default messageTemplates;
