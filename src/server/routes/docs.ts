import type { FastifyPluginAsync } from 'fastify';

/** `GET /api/docs/json`: the OpenAPI document of every route (services/docs.ts), itself left out. */
const docs: FastifyPluginAsync = async (app) => {
  app.get('/api/docs/json', { config: { publicReference: true }, schema: { hide: true } }, async () => app.swagger());
};

export default docs;
