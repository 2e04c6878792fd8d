import type { FastifyPluginAsync } from 'fastify';
import type { JSONSchema7 } from 'json-schema';
import { ApiError, errorBodySchema } from '../../errors.ts';
import { objectReply } from '../../reply-schemas.ts';
import { resolveFieldSchema } from '../../../shared/field-schema.ts';
import type { CapabilityOptions } from '../registry.ts';
import { createMover, type MoveInput } from './move.ts';

/** The JSON Schema of a group value on the wire: the group field's type, bounded. */
function groupSchema(schema: JSONSchema7, pointer: string | undefined): JSONSchema7 {
  const field = pointer ? resolveFieldSchema(schema, pointer) : undefined;
  if (field?.type === 'integer') return { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
  return { type: 'string', minLength: 1, maxLength: 200 };
}

/** An entry of the order the move answers (and a 409 carries in its details). */
const orderEntrySchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, group: {}, position: { type: 'integer' }, version: { type: 'integer' } },
};

/**
 * `PUT /api{base}/order/{id}` for entities whose manifest declares `order`: moves the record
 * to place `index` of its group, or of the group `group`, and renumbers both groups (move.ts).
 * Needs update on the entity and the record's edit rules to allow an update (403), the record
 * readable (404); a group of another entity's ids (`groupEntity`) must name a record the caller reads (400).
 * Answers `{order}`, the new places of the groups touched, with every record's new version.
 */
const order: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    const spec = def.manifest.order!;
    const mover = createMover(app.db, app.tables.get(def.id)!, def.id, spec);
    // The records the group values are ids of: the manifest's groupEntity, else the field's entityRef.
    const groupField = spec.group ? resolveFieldSchema(def.schema, spec.group) : undefined;
    const groupRef =
      spec.groupEntity ?? (groupField as { entityRef?: { entity: string } } | undefined)?.entityRef?.entity;
    app.put<{ Params: { id: number }; Body: MoveInput }>(
      `/api${def.manifest.base}/order/:id`,
      {
        schema: {
          tags: [def.manifest.subject],
          summary: `Moves a ${def.id} record to a place${spec.group ? ` within its ${spec.group.slice(1)} or another` : ''}`,
          params: {
            type: 'object',
            required: ['id'],
            properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
          },
          body: {
            type: 'object',
            required: ['index', 'version'],
            additionalProperties: false,
            properties: {
              ...(spec.group ? { group: groupSchema(def.schema, spec.group) } : {}),
              index: { type: 'integer', minimum: 0, maximum: 100000 },
              version: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
            },
          },
          response: {
            200: objectReply('The new order of the groups touched', {
              order: { type: 'array', items: orderEntrySchema },
            }),
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
            409: errorBodySchema,
          },
        },
      },
      async (request) => {
        const { actor } = request;
        if (!actor.ability.can('update', def.manifest.subject))
          throw actor.id === null ? new ApiError(401, 'errors.unauthorized') : new ApiError(403, 'errors.forbidden');
        // Readable (else 404) and open to an update by the entity's edit rules in its status.
        const rights = await app.store.rights(def.id, request.params.id, actor);
        if (!rights.update) throw new ApiError(403, 'errors.forbidden');
        const { group } = request.body;
        if (group !== undefined && groupRef) await app.store.get(groupRef, Number(group), actor).catch(noGroup);
        return { order: await mover.move(request.params.id, request.body, actor) };
      },
    );
  }
};

/** A target group that is not a record the caller may read is a bad request, not a missing move. */
function noGroup(error: unknown): never {
  const status = (error as { statusCode?: number }).statusCode;
  if (status === 404 || status === 403)
    throw new ApiError(400, 'errors.invalidInput', {
      fieldErrors: [{ pointer: '/group', key: 'validation.entityRef', params: {} }],
    });
  throw error;
}

export default order;
