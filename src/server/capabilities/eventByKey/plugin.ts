import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema } from '../../errors.ts';
import { objectReply } from '../../reply-schemas.ts';
import type { Actor, StoredRecord } from '../../store/entity-store.ts';
import type { CapabilityOptions } from '../registry.ts';

/**
 * `POST /api{route}` for each `eventByKey` entry of a manifest: the record found by a unique key
 * (through the grid's eq filter, so within the caller's scope) gets the machine event, exactly as
 * `POST {base}/transition/{id}` would send it — same permission, guards, history and audit. A
 * record already in a done state is answered unchanged, and so is one another request moved there
 * a moment earlier (the 409 of a stale version is read again once), so sending twice is harmless.
 */
const eventByKey: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    for (const spec of def.manifest.eventByKey ?? []) {
      const done = new Set(spec.doneStates ?? []);
      const find = async (key: string, actor: Actor): Promise<StoredRecord> => {
        const { list } = await app.store.listSearch(
          def.id,
          { [spec.filter]: key },
          { page: 0, itemsPerPage: 1 },
          actor,
        );
        if (!list[0]) throw new ApiError(404, spec.notFoundKey, { params: { [spec.param]: key } });
        return app.store.get(def.id, list[0].id, actor);
      };
      app.post<{ Body: Record<string, string> }>(
        `/api${spec.route}`,
        {
          schema: {
            tags: [def.manifest.subject],
            summary: spec.description ?? `Sends ${spec.event} to the ${def.id} found by ${spec.param}`,
            body: {
              type: 'object',
              required: [spec.param],
              additionalProperties: false,
              properties: { [spec.param]: { type: 'string', minLength: 1, maxLength: 200 } },
            },
            response: {
              200: objectReply(`The ${def.id} record after ${spec.event}`),
              400: errorBodySchema,
              401: errorBodySchema,
              403: errorBodySchema,
              404: errorBodySchema,
              409: errorBodySchema,
            },
          },
        },
        async (request) => {
          const key = request.body[spec.param]!.trim();
          const send = async (record: StoredRecord) =>
            done.has(record.status)
              ? record
              : app.workflow.send(def.id, record.id, { event: spec.event, version: record.version }, request.actor);
          const record = await find(key, request.actor);
          try {
            return await send(record);
          } catch (error) {
            if (!(error instanceof ApiError) || error.statusCode !== 409) throw error;
            const again = await find(key, request.actor);
            if (done.has(again.status)) return again;
            throw error;
          }
        },
      );
    }
  }
};

export default eventByKey;
