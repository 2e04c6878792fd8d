import type { FastifyPluginAsync } from 'fastify';
import { ApiError, errorBodySchema } from '../../errors.ts';
import { objectReply, okReply } from '../../reply-schemas.ts';
import { checkPassword, hashPassword, identityOfUser, passwordProblem } from '../../auth/passwords.ts';

/** The signed-in user's own account: a new password (`POST /api/auth/change-password`) and the profile. */
const profile: FastifyPluginAsync = async (app) => {
  app.post<{ Body: { oldPassword: string; newPassword: string; confirmPassword?: string } }>(
    '/api/auth/change-password',
    {
      schema: {
        tags: ['Auth'],
        summary:
          "Change one's own password: the current one, the new one (the password policy: 12–128 characters, not the username, not easy to guess) and, when given, its confirmation",
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['oldPassword', 'newPassword'],
          properties: {
            oldPassword: { type: 'string', maxLength: 1000 },
            newPassword: { type: 'string', maxLength: 1000 },
            confirmPassword: { type: 'string', maxLength: 1000 },
          },
        },
        response: { 200: okReply, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const id = request.actor.id;
      if (!id) throw new ApiError(401, 'errors.unauthorized');
      // The form's own mistakes first: they are told without spending a password check.
      const { newPassword, confirmPassword } = request.body;
      const weak = passwordProblem(newPassword, identityOfUser(await app.authSessions.userData(Number(id))));
      const formProblems = [
        ...(weak ? [{ pointer: '/newPassword', ...weak }] : []),
        ...(confirmPassword !== undefined && confirmPassword !== newPassword
          ? [{ pointer: '/confirmPassword', key: 'validation.passwordMismatch', params: {} }]
          : []),
      ];
      if (formProblems.length) throw new ApiError(400, 'errors.invalidInput', { fieldErrors: formProblems });
      const stored = await app.users.passwordHash(id);
      if (!stored || !(await checkPassword(stored, request.body.oldPassword))) {
        throw new ApiError(400, 'errors.invalidInput', {
          fieldErrors: [{ pointer: '/oldPassword', key: 'validation.wrongPassword', params: {} }],
        });
      }
      await app.users.changePassword(id, await hashPassword(request.body.newPassword));
      return { ok: true };
    },
  );

  app.get(
    '/api/auth/profile',
    {
      schema: {
        tags: ['Auth'],
        summary: "The signed-in user's own profile: names, roles (code and name), staff card and avatar",
        querystring: { type: 'object', additionalProperties: false, properties: { lang: { type: 'string' } } },
        response: {
          200: objectReply('Who I am', {
            id: { type: 'integer' },
            username: { type: 'string' },
            isOuter: { type: 'boolean' },
            roles: { type: 'array', items: objectReply('A role: code and name') },
            permissions: { type: 'array', items: { type: 'string' } },
          }),
          401: errorBodySchema,
        },
      },
    },
    async (request) => {
      const id = request.actor.id;
      if (!id) throw new ApiError(401, 'errors.unauthorized');
      const { reply, names, roles } = await app.authSessions.sessionInfo(id);
      return {
        id: reply.id,
        username: reply.username,
        cardId: reply.employeeId,
        names,
        isOuter: reply.isOuter,
        uploadPath: reply.uploadPath,
        roles: await app.authSessions.roleNames(roles),
        permissions: reply.permissions,
      };
    },
  );
};

export default profile;
