import type { FastifyPluginAsync } from 'fastify';
import { createChallengeStore, SIGNATURE_TABLES } from '../../auth/signature/index.ts';
import {
  createOneIdClient,
  createSqlPendingLoginStore,
  ONEID_TABLES,
  OneIdError,
} from '../../auth/oneid/oneid-client.ts';
import { oneIdConfigFromEnv } from '../../auth/oneid/config.ts';
import { logAttempt } from '../../auth/throttle.ts';
import { ApiError, errorBodySchema } from '../../errors.ts';
import { objectReply, redirectReply } from '../../reply-schemas.ts';
import { trustedCas } from '../../auth/external.ts';

/** The challenges a signature signs; the OneID sign-ins under way. */
export const migrations = [SIGNATURE_TABLES, ONEID_TABLES];

/**
 * The routes of the other sign-in methods: the one-time challenge a digital signature signs
 * (the signed answer comes to POST /api/auth-payload), and OneID single sign-on (authorization
 * code + PKCE), whose callback hands the session to the sign-in screen in the URL fragment
 * (never sent to a server, gone from history once read).
 */
const external: FastifyPluginAsync = async (app) => {
  const challenges = createChallengeStore(app.db);
  app.get<{ Querystring: { INN?: string; TIN?: string; PNFL?: string } }>(
    '/api/key-for-login-sign',
    {
      schema: {
        tags: ['Auth'],
        summary: 'A one-time challenge (5 minutes) to sign with the e-signature key',
        querystring: {
          type: 'object',
          properties: {
            INN: { type: 'string', pattern: '^[0-9]{9}$' },
            TIN: { type: 'string', pattern: '^[0-9]{9}$' },
            PNFL: { type: 'string', pattern: '^[0-9]{14}$' },
            lang: { type: 'string' },
          },
        },
        response: { 200: objectReply('The challenge to sign and when it expires') },
      },
    },
    async (request) => challenges.issue({ tin: request.query.TIN ?? request.query.INN, pinfl: request.query.PNFL }),
  );

  const config = app.config.oneId ?? oneIdConfigFromEnv();
  const client = config ? createOneIdClient(config, createSqlPendingLoginStore(app.db)) : undefined;
  // The sign-in screen offers only the methods this server can complete.
  app.get(
    '/api/auth/methods',
    {
      config: { publicReference: true },
      schema: {
        tags: ['Auth'],
        summary: 'Which sign-in methods are set up here',
        response: {
          200: {
            type: 'object',
            properties: { password: { type: 'boolean' }, signature: { type: 'boolean' }, oneId: { type: 'boolean' } },
          },
        },
      },
    },
    async () => ({ password: true, signature: trustedCas(app).length > 0, oneId: Boolean(client) }),
  );

  app.get<{ Querystring: { redirect?: string; remember?: '0' | '1' } }>(
    '/api/product-auth/auth/oneid/login',
    {
      schema: {
        tags: ['Auth'],
        summary:
          'Starts OneID sign-in (302 to the provider); `remember=1` keeps the session 30 days, as "remember me" does',
        querystring: {
          type: 'object',
          properties: {
            redirect: { type: 'string', maxLength: 500 },
            remember: { type: 'string', enum: ['0', '1'] },
            lang: { type: 'string' },
          },
        },
        response: { 302: redirectReply('the OneID provider'), 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      if (!client) throw new ApiError(400, 'errors.oneIdNotConfigured');
      // The choice travels with the OIDC state (stored server-side), not through the provider.
      const { url } = await client.startLogin({
        ...(request.query.redirect ? { redirect: request.query.redirect } : {}),
        remember: request.query.remember === '1',
      });
      return reply.redirect(url);
    },
  );
  app.get(
    '/api/product-auth/auth/oneid/redirectUri',
    {
      schema: {
        tags: ['Auth'],
        summary: 'OneID callback (code, state): signs in and returns to the portal',
        querystring: {
          type: 'object',
          properties: {
            code: { type: 'string', maxLength: 2000 },
            state: { type: 'string', maxLength: 500 },
            error: { type: 'string', maxLength: 200 },
          },
        },
        response: {
          302: redirectReply('/login with the session in the URL fragment, or /login?error=oneid'),
          400: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      if (!client) throw new ApiError(400, 'errors.oneIdNotConfigured');
      try {
        const { identity, redirect, remember } = await client.finishLogin(
          new URL(request.url, 'http://portal.invalid'),
        );
        const userId = await app.authSessions.provision({ ...identity, provider: 'oneid' });
        if (!userId) throw new OneIdError('invalid-token', 'no account may sign in with this identity');
        await logAttempt(
          app.db,
          { username: identity.pinfl ?? identity.subject, ip: request.ip, outcome: 'ok', method: 'oneid' },
          app.config.clock(),
        );
        const session = Buffer.from(JSON.stringify(await app.authSessions.payloadFor(userId, remember))).toString(
          'base64url',
        );
        return reply.redirect(`/login?redirect=${encodeURIComponent(redirect ?? '/')}#session=${session}`);
      } catch (error) {
        if (!(error instanceof OneIdError)) throw error;
        await logAttempt(
          app.db,
          { username: 'oneid', ip: request.ip, outcome: 'bad-credentials', method: 'oneid' },
          app.config.clock(),
        );
        return reply.redirect(`/login?error=oneid`);
      }
    },
  );
};

export default external;
