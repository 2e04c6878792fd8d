import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import { STOMP_PATH } from './stomp.ts';
import { SECURITY_CHANNEL, USER_CHANNELS } from '../messenger/session.ts';

const DESCRIPTION = [
  'Generated from the route schemas, which come from the entity definitions in schemas/.',
  'Errors are {message, details?, fieldErrors?}: 400 names each refused field by its JSON pointer in fieldErrors —',
  'including hostile values (NUL, lone surrogates, numbers past ±2^53−1, nesting past 32 levels) in any body, query, path or multipart part.',
  'Signed-in calls carry `Authorization: Bearer <token>` from POST /api/auth-payload.',
  `Live events: STOMP 1.2 over WebSocket at ${STOMP_PATH} (see x-live-socket).`,
].join(' ');

/**
 * The OpenAPI document (@fastify/swagger), served by routes/docs.ts. Registered before every
 * route plugin: the document lists exactly the routes registered after it.
 */
export default fp(
  async (app) => {
    await app.register(swagger, {
      // The socket is no HTTP operation (its GET entry in stomp.ts only answers 426): an extension names it.
      openapi: Object.assign(
        { openapi: '3.1.0', info: { title: 'Committee portal API', description: DESCRIPTION, version: '1' } },
        {
          'x-live-socket': {
            path: STOMP_PATH,
            protocol: 'STOMP 1.2 over WebSocket (subprotocol v12.stomp)',
            connect:
              "CONNECT with the bearer token as `Authorization: Bearer …` or as `passcode`; a browser Origin must be the portal's own or in STOMP_ALLOWED_ORIGINS",
            subscribe: `/user/{own user id}/{channel}; channels: ${USER_CHANNELS.join(', ')}; ${SECURITY_CHANNEL} for the security role`,
            send: '/app/… destinations',
          },
        },
      ),
    });
  },
  { name: 'docs' },
);
