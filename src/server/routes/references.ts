import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../errors.ts';

const itemSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    code: { type: 'string' },
    parent: { type: ['integer', 'null'] },
    nameLt: { type: 'string' },
    nameUz: { type: 'string' },
    nameRu: { type: 'string' },
    nameEn: { type: 'string' },
    active: { type: 'boolean' },
  },
} as const;

/** Public reference lists (regions, districts, topics…), optionally by parent. */
const references: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { kind: string }; Querystring: { parent?: number } }>(
    '/api/reference/:kind',
    {
      config: { publicReference: true },
      schema: {
        tags: ['Reference'],
        summary: 'A reference list (regions, districts, topics…): its active items, or the children of `parent`',
        params: { type: 'object', properties: { kind: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } } },
        querystring: {
          type: 'object',
          properties: { parent: { type: 'integer' }, lang: { type: 'string' } },
          additionalProperties: false,
        },
        response: { 200: { type: 'object', properties: { list: { type: 'array', items: itemSchema } } } },
      },
    },
    async (request) => {
      const list = app.references.list(request.params.kind, request.query.parent);
      if (!list) throw notFound();
      return { list };
    },
  );
};

export default references;
