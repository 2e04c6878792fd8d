import type { FastifyPluginAsync } from 'fastify';
import { errorBodySchema } from '../errors.ts';
import { STOMP_PATH } from '../services/stomp.ts';

/**
 * `GET /gs-guide-websocket` without an Upgrade header: the socket itself is services/stomp.ts,
 * which takes the upgrades before Fastify sees them.
 */
const stomp: FastifyPluginAsync = async (app) => {
  // A plain GET (no Upgrade header) reaches Fastify: it is told how to connect. The entry
  // also names the socket in the OpenAPI document.
  app.get(
    STOMP_PATH,
    {
      schema: {
        tags: ['Live'],
        summary:
          'The live socket: STOMP 1.2 over WebSocket (Upgrade: websocket, subprotocol v12.stomp); CONNECT with the bearer token',
        response: {
          101: { description: 'Switching protocols: the STOMP session begins', type: 'null' },
          426: { ...errorBodySchema, description: 'A plain HTTP request: connect with a WebSocket client' },
        },
      },
    },
    async (request, reply) =>
      reply
        .code(426)
        .header('upgrade', 'websocket')
        .header('connection', 'Upgrade')
        .send({ message: app.translator.t(request.locale, 'apiDocs.useWebSocket') }),
  );
};

export default stomp;
