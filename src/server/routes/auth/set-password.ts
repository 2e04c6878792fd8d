import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema } from '../../errors.ts';
import { okReply } from '../../reply-schemas.ts';
import { hashPassword, identityOfUser, passwordProblem } from '../../auth/passwords.ts';

/**
 * `POST /api/auth/set-password`: an administrator sets another user's password (the caller
 * needs update on the user entity and sight of that user, through the store); the password
 * policy applies, and the user's sessions end with it.
 */
const setPassword: FastifyPluginAsync = async (app) => {
  const access = app.definitions.access!;
  app.post<{ Body: { userId: number; password: string; confirmPassword?: string } }>(
    '/api/auth/set-password',
    {
      schema: {
        tags: ['Auth'],
        summary:
          'Set another user\'s password (needs "update User" and sight of that user; the password policy applies: 12–128 characters, not the username or e-mail, not easy to guess); the user\'s sessions end',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['userId', 'password'],
          properties: {
            userId: { type: 'integer', minimum: 1 },
            password: { type: 'string', maxLength: 1000 },
            confirmPassword: { type: 'string', maxLength: 1000 },
          },
        },
        response: { 200: okReply, 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      // Reading and updating the user record through the store applies the caller's rights and scope.
      await app.store.get(access.userEntity, request.body.userId, request.actor);
      if (!request.actor.ability.can('update', app.definitions.entities.get(access.userEntity)!.manifest.subject))
        throw new ApiError(403, 'errors.forbidden');
      const { password, confirmPassword } = request.body;
      // The user's own identifiers, read directly: the caller may see fewer fields than the policy needs.
      const weak = passwordProblem(password, identityOfUser(await app.authSessions.userData(request.body.userId)));
      const problems = [
        ...(weak ? [{ pointer: '/password', ...weak }] : []),
        ...(confirmPassword !== undefined && confirmPassword !== password
          ? [{ pointer: '/confirmPassword', key: 'validation.passwordMismatch', params: {} }]
          : []),
      ];
      if (problems.length) throw new ApiError(400, 'errors.invalidInput', { fieldErrors: problems });
      // A password set by someone else replaces one that may be known to others: the user's
      // sessions (refresh tokens) end with it, as after "forgot password".
      const hash = await hashPassword(password);
      await app.db.transaction(async (tx) => {
        await app.users.setPassword(String(request.body.userId), hash, tx);
        await tx.query('UPDATE refresh_token SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [
          String(request.body.userId),
        ]);
      });
      app.authSessions.forget(String(request.body.userId));
      return { ok: true };
    },
  );
};

export default setPassword;
