import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';

/** `GET /api/health` and the OpenAPI document built from the route schemas at `/api/docs/json`. */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Committee portal API',
          description: 'Generated from the entity definitions in schemas/. Errors are {message, details?, fieldErrors?}.',
          version: '1',
        },
      },
    });
    app.get('/api/health', {
      schema: { tags: ['System'], response: { 200: { type: 'object', properties: { status: { type: 'string' }, db: { type: 'string' } } } } },
    }, async () => {
      await app.db.query('SELECT 1');
      return { status: 'ok', db: app.db.kind };
    });
    app.get('/api/docs/json', { config: { publicReference: true }, schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'docs', dependencies: ['db'] },
);
