import type { FastifyPluginAsync, FastifySchemaCompiler } from 'fastify';
import { errorBodySchema } from '../errors.ts';
import { createServerAjv } from '../validation.ts';
import { createRecordProblems } from '../evolution/record-problems.ts';
import { withoutSystemFields } from '../store/record-input.ts';
import { systemActor } from '../auth/access.ts';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/**
 * The status machines' routes, for every entity whose manifest names a `workflow`:
 * `GET {base}/events/{id}` (what the caller may send now), `GET {base}/history/{id}` (the
 * path so far) and `POST {base}/transition/{id}` (the only way a status changes), all
 * answered by the workflow engine (services/workflow.ts).
 */
const workflow: FastifyPluginAsync = async (app) => {
  const queryAjv = createServerAjv({ coerceTypes: true });
  const problems = createRecordProblems(app.definitions, app.translator);
  // The engine validates the body itself, so that every refusal has the same shape and order.
  const engineValidatesBody: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
    httpPart === 'body' ? ((() => true) as never) : (queryAjv.compile(schema as object) as never);

  for (const def of app.definitions.entities.values()) {
    if (!def.manifest.workflow || !app.definitions.machines.has(def.manifest.workflow)) continue;
    const base = `/api${def.manifest.base}`;
    const entity = def.id;
    const tags = [def.manifest.subject];

    app.get<{ Params: { id: number } }>(
      `${base}/events/:id`,
      {
        schema: {
          tags,
          summary: 'The status events the caller may send to the record now',
          params: idParams,
          response: {
            200: {
              type: 'object',
              properties: {
                status: { type: 'string' },
                version: { type: 'integer' },
                machine: { type: 'string' },
                problems: {
                  type: 'array',
                  description:
                    'Stored fields that do not fit the schema now: every event is refused until they are corrected',
                  items: {
                    type: 'object',
                    properties: { pointer: { type: 'string' }, label: { type: 'string' }, message: { type: 'string' } },
                  },
                },
                events: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      type: { type: 'string' },
                      target: { type: 'string' },
                      description: { type: 'string' },
                      payload: { type: 'object', additionalProperties: true },
                    },
                  },
                },
              },
            },
            ...errors,
          },
        },
      },
      async (request) => {
        const answer = await app.workflow.events(entity, request.params.id, request.actor);
        // A record whose stored data no longer fits its schema cannot leave its state by any
        // event until the field is put right: the answer says which field, and why.
        const { data } = withoutSystemFields(await app.store.get(entity, request.params.id, systemActor()));
        const found = problems.of(entity, data);
        return found.length ? { ...answer, problems: problems.tell(entity, found, request.locale) } : answer;
      },
    );

    app.get<{ Params: { id: number } }>(
      `${base}/history/:id`,
      {
        schema: {
          tags,
          summary: 'The record’s status changes, oldest first',
          params: idParams,
          response: {
            200: {
              type: 'object',
              properties: {
                list: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      id: { type: 'integer' },
                      at: { type: 'string' },
                      actor: { type: ['string', 'null'] },
                      actorName: { type: ['string', 'null'] },
                      event: { type: 'string' },
                      from: { type: 'string' },
                      to: { type: 'string' },
                      payload: { type: 'object', additionalProperties: true },
                      comment: { type: ['string', 'null'] },
                      machine: { type: 'string' },
                      machineVersion: { type: 'integer' },
                    },
                  },
                },
              },
            },
            ...errors,
          },
        },
      },
      async (request) => app.workflow.history(entity, request.params.id, request.actor),
    );

    app.post<{ Params: { id: number } }>(
      `${base}/transition/:id`,
      {
        validatorCompiler: engineValidatesBody,
        schema: {
          tags,
          summary:
            'Sends a status event: {event, payload?, version, comment?}; 409 when the status does not allow it now',
          params: idParams,
          body: {
            type: 'object',
            required: ['event', 'version'],
            properties: {
              event: { type: 'string' },
              payload: { type: 'object' },
              version: { type: 'integer', minimum: 1 },
              comment: { type: 'string' },
            },
          },
          response: { 200: { type: 'object', additionalProperties: true }, ...errors },
        },
      },
      async (request) => app.workflow.send(entity, request.params.id, request.body, request.actor),
    );
  }
};

export default workflow;
