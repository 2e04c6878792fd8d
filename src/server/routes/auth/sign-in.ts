import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema } from '../../errors.ts';
import { objectReply } from '../../reply-schemas.ts';
import { checkPassword, DUMMY_HASH } from '../../auth/passwords.ts';
import { logAttempt, throttleWait } from '../../auth/throttle.ts';
import { createSignatureSignIn } from '../../auth/external.ts';
import { sessionReplySchema } from '../../auth/session-reply.ts';
import { SIGNATURE_TABLES } from '../../auth/signature/index.ts';

/** The challenges a signature sign-in uses up. */
export const migrations = [SIGNATURE_TABLES];

type SignInBody = {
  username?: string;
  password?: string;
  rememberMe?: boolean;
  signedData?: string;
  challenge?: string;
  TIN?: string;
  tin?: string;
  INN?: string;
  PNFL?: string;
};

/**
 * Sign-in (`POST /api/auth-payload`: username and password — throttled per username and
 * address, every attempt logged — or a signed challenge) and the refresh grant
 * (`POST /api/o/token/`: a used refresh token is replaced, a reused one ends its family).
 * Both answer the session of services/auth.ts.
 */
const signIn: FastifyPluginAsync = async (app) => {
  const sessions = app.authSessions;
  const signatureSignIn = createSignatureSignIn(app, sessions.provision, sessions.payloadFor);

  app.post<{ Body: SignInBody }>(
    '/api/auth-payload',
    {
      schema: {
        tags: ['Auth'],
        summary:
          'Sign in with username and password, or with `signedData` (CMS over the challenge; `challenge` too when detached) and TIN/PNFL',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            username: { type: 'string', maxLength: 100 },
            password: { type: 'string', maxLength: 1000 },
            rememberMe: { type: 'boolean' },
            signedData: { type: 'string', maxLength: 400000 },
            challenge: { type: 'string', maxLength: 100 },
            TIN: { type: 'string', maxLength: 20 },
            tin: { type: 'string', maxLength: 20 },
            INN: { type: 'string', maxLength: 20 },
            PNFL: { type: 'string', maxLength: 20 },
          },
        },
        response: { 200: sessionReplySchema, 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      if (request.body.signedData !== undefined) return signatureSignIn(request as never);
      if (typeof request.body.username !== 'string' || typeof request.body.password !== 'string') {
        throw new ApiError(400, 'errors.invalidInput', {
          fieldErrors: [
            ...(typeof request.body.username !== 'string'
              ? [{ pointer: '/username', key: 'validation.required', params: {} }]
              : []),
            ...(typeof request.body.password !== 'string'
              ? [{ pointer: '/password', key: 'validation.required', params: {} }]
              : []),
          ],
        });
      }
      const username = request.body.username.trim().toLowerCase();
      const ip = request.ip;
      const wait = await throttleWait(app.db, username, ip, app.config.clock());
      if (wait > 0) {
        await logAttempt(app.db, { username, ip, outcome: 'throttled', method: 'password' }, app.config.clock());
        reply.header('retry-after', String(wait));
        throw new ApiError(429, 'errors.tooManyAttempts', { params: { seconds: wait } });
      }
      const user = await sessions.credentialsOf(username);
      // The same work whether or not the user exists, and the same answer for every failure.
      const ok = await checkPassword(user?.hash ?? DUMMY_HASH, request.body.password);
      const allowed = Boolean(user) && (await sessions.mayLogin(String(user!.id), user!.data));
      if (!user || !user.hash || !ok || !allowed) {
        await logAttempt(
          app.db,
          { username, ip, outcome: user && ok && !allowed ? 'disabled' : 'bad-credentials', method: 'password' },
          app.config.clock(),
        );
        throw new ApiError(401, 'errors.badCredentials');
      }
      await logAttempt(app.db, { username, ip, outcome: 'ok', method: 'password' }, app.config.clock());
      sessions.forget(String(user.id));
      return sessions.payloadFor(String(user.id), request.body.rememberMe === true);
    },
  );

  app.post<{ Body: { grant_type?: string; refresh_token?: string } }>(
    '/api/o/token/',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Refresh grant: a used refresh token is replaced; a reused one ends its whole family',
        body: {
          type: 'object',
          required: ['grant_type', 'refresh_token'],
          properties: {
            grant_type: { const: 'refresh_token' },
            refresh_token: { type: 'string', maxLength: 200 },
            client_id: { type: 'string' },
            client_secret: { type: 'string' },
          },
        },
        response: {
          200: {
            ...sessionReplySchema,
            properties: {
              ...(sessionReplySchema.properties as object),
              access_token: { type: 'string' },
              refresh_token: { type: 'string' },
              token_type: { type: 'string' },
              expires_in: { type: 'integer' },
            },
          },
          401: objectReply('The refresh token is spent, revoked or unknown', {
            message: { type: 'string' },
            detail: { type: 'string' },
          }),
        },
      },
    },
    async (request, reply) => {
      const next = await sessions.refresh.rotate(request.body.refresh_token!);
      const actor = next && (await sessions.actorOf(next.userId));
      if (!next || !actor) {
        const message = app.translator.t(request.locale, 'errors.sessionExpired');
        return reply.code(401).send({ message, detail: message });
      }
      // The sign-in reply's fields (spec §7: uploadPath among them — a new avatar, changed
      // permissions), plus the OAuth names of the same tokens.
      const payload = await sessions.payloadOf(next.userId, next);
      return {
        access_token: payload.token,
        refresh_token: payload.refreshToken,
        token_type: 'Bearer',
        expires_in: payload.expiresIn,
        ...payload,
      };
    },
  );
};

export default signIn;
