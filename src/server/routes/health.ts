import type { FastifyPluginAsync } from 'fastify';
import { objectReply } from '../reply-schemas.ts';

/** `GET /api/health`: the server answers, and so does its database. */
const health: FastifyPluginAsync = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['System'],
        summary: 'Liveness and the database in use',
        response: {
          200: objectReply('The server answers and its database too', {
            status: { type: 'string' },
            db: { type: 'string', enum: ['pglite', 'postgres'] },
          }),
        },
      },
    },
    async () => {
      await app.db.query('SELECT 1');
      return { status: 'ok', db: app.db.kind };
    },
  );
};

export default health;
