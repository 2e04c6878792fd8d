import type { FastifyPluginAsync } from 'fastify';
import { okReply } from '../../reply-schemas.ts';

/**
 * Sign-out (`POST /api/logout`), in a scope of its own: here (only) a JSON content type with
 * no bytes is an empty body, as clients that sign out by the bearer token alone send it.
 */
const logout: FastifyPluginAsync = async (app) => {
  const { tokens, refresh, revokedFamilies } = app.authSessions;
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    if (text === '') done(null, {});
    else parseJson(request, String(text), done);
  });
  app.post<{ Body: { refresh_token?: string } }>(
    '/api/logout',
    {
      schema: {
        tags: ['Auth'],
        summary:
          "Sign out this device: the refresh token's family (and the bearer token's) is revoked — its access tokens stop working too; other devices stay signed in",
        body: { type: 'object', properties: { refresh_token: { type: 'string', maxLength: 200 } } },
        response: { 200: okReply },
      },
      // No body at all is signing out by the bearer token alone.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      if (request.body?.refresh_token) await refresh.revoke(request.body.refresh_token);
      // The bearer token names its family too: a client that lost its refresh token still signs out.
      const header = request.headers.authorization;
      const claims = header?.startsWith('Bearer ') ? await tokens.verify(header.slice(7).trim()) : undefined;
      if (claims?.sid && claims.sub === request.actor.id && !revokedFamilies.has(claims.sid))
        await refresh.revokeFamily(claims.sid);
      if (request.actor.id) app.authSessions.forget(request.actor.id);
      return { ok: true };
    },
  );
};

export default logout;
