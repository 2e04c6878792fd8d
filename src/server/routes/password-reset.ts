import type { FastifyPluginAsync } from 'fastify';
import { ApiError, badInput } from '../errors.ts';
import { hashPassword, identityOfUser, NEW_PASSWORD_CHECKS_PER_MINUTE, passwordProblem } from '../auth/passwords.ts';
import {
  CODE_TTL_SECONDS,
  CONFIRMATION_TABLES,
  createConfirmations,
  normalizePhone,
  RESEND_COOLDOWN_SECONDS,
  SESSION_TTL_SECONDS,
  withRetryAfter,
} from '../auth/confirmation.ts';

/** The confirmation sessions of password reset. */
export const migrations = [CONFIRMATION_TABLES];

const uidSchema = { type: 'string', format: 'uuid' } as const;

/**
 * "Forgot password": a confirmation code to the account's e-mail address or phone, found by
 * username, phone or e-mail; then a new password with that code. The first answer is the
 * same whether or not such an account exists (a session and a code are made either way; only
 * a real account's code is sent). A reset ends every refresh token of the user.
 *
 * The password policy runs twice so that it tells nothing about the account to whoever does
 * not hold the code: before the code, with what the requester typed (the login) only — the
 * same answer for every account and for none; after a right code, with the account's own
 * username, e-mail and names. A refusal then keeps the code good for another try.
 */
const passwordReset: FastifyPluginAsync = async (app) => {
  const users = app.users;
  const codes = createConfirmations(app.db, app.config.clock);
  const clock = app.config.clock;

  /** The account a login names, with where a code can go. */
  const findAccount = async (login: string) => {
    const digits = /^[+]?[0-9 ()-]{7,}$/.test(login) ? normalizePhone(login).replace(/[^0-9]/g, '') : null;
    const user = await users.forReset(login, digits);
    if (!user || !user.can_login) return undefined;
    // A code goes where the login pointed; a username reaches the address, else the phone.
    const byMail = login.includes('@') || (!digits && user.email);
    const to = byMail ? user.email : user.phone ? normalizePhone(user.phone) : null;
    return to ? { id: String(user.id), channel: byMail ? ('mail' as const) : ('phone' as const), to } : undefined;
  };

  app.post<{ Body: { login: string } }>(
    '/api/auth/forgot-password/send-code',
    {
      schema: {
        tags: ['Auth'],
        summary:
          'Sends a password-reset code to the account named by username, phone or e-mail; the answer never tells whether it exists',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['login'],
          properties: { login: { type: 'string', minLength: 1, maxLength: 255 } },
        },
        response: {
          200: {
            type: 'object',
            required: ['uid', 'expiresIn', 'resendIn'],
            properties: { uid: uidSchema, expiresIn: { type: 'integer' }, resendIn: { type: 'integer' } },
          },
        },
      },
    },
    async (request, reply) => {
      const login = request.body.login.trim().toLowerCase();
      await codes.throttle(request.ip, 'sends').catch((e: unknown) => withRetryAfter(reply, e));
      const account = await findAccount(login);
      // Asking again for the same login continues its session: the resend cooldown holds per login.
      const recent = await app.db.query<{ uid: string }>(
        `SELECT uid::text FROM confirmation_session WHERE purpose = 'password-reset' AND status = 'code-sent' AND data->>'login' = $1 AND created_at > $2::timestamptz ORDER BY created_at DESC LIMIT 1`,
        [login, new Date(clock().getTime() - SESSION_TTL_SECONDS * 1000).toISOString()],
      );
      const uid = await app.db
        .transaction(async (tx) => {
          const id = recent.rows[0]?.uid ?? (await codes.start('password-reset', request.ip, { login }, tx));
          await codes.update(tx, id, { userId: account?.id ?? null });
          const code = await codes.issueCode(tx, id, request.ip, account?.channel ?? 'mail', account?.to ?? '');
          if (account)
            await app.notify.sender.send(
              {
                channel: account.channel === 'phone' ? 'sms' : 'email',
                to: account.to,
                templateKey: 'confirmation.message.passwordReset',
                params: { code, minutes: CODE_TTL_SECONDS / 60 },
                locale: request.locale,
              },
              tx,
            );
          return id;
        })
        .catch((e: unknown) => withRetryAfter(reply, e));
      app.notify.worker.kick();
      return { uid, expiresIn: CODE_TTL_SECONDS, resendIn: RESEND_COOLDOWN_SECONDS };
    },
  );

  app.post<{ Body: { uid: string; code: string; password: string; confirmPassword: string } }>(
    '/api/auth/forgot-password/reset',
    {
      config: { publicRateLimit: { bucket: 'new-password', perMinute: NEW_PASSWORD_CHECKS_PER_MINUTE } },
      schema: {
        tags: ['Auth'],
        summary:
          'Sets a new password (the password policy: 12–128 characters, not the username or e-mail, not easy to guess) with the emailed or texted code; every refresh token of the user stops working',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['uid', 'code', 'password', 'confirmPassword'],
          properties: {
            uid: uidSchema,
            code: { type: 'string', maxLength: 20 },
            password: { type: 'string', maxLength: 1000 },
            confirmPassword: { type: 'string', maxLength: 1000 },
          },
        },
        response: { 200: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } },
      },
    },
    async (request) => {
      const { uid, code, password, confirmPassword } = request.body;
      const session = await codes.find(uid, 'password-reset');
      if (!session) throw new ApiError(400, 'confirmation.errors.sessionExpired');
      const typed = passwordProblem(password, { login: session.data.login });
      if (typed) throw badInput([{ pointer: '/password', ...typed }]);
      if (password !== confirmPassword)
        throw badInput([{ pointer: '/confirmPassword', key: 'registration.errors.passwordsDiffer', params: {} }]);
      const verified = await codes.verifyCode(uid, code, '/code', { keep: true });
      // Only a real account's code was ever sent; for an unknown login no code can be right.
      if (!session.userId)
        throw badInput([{ pointer: '/code', key: 'confirmation.errors.wrongCode', params: { left: 0 } }]);
      const own = passwordProblem(password, {
        ...identityOfUser((await users.byId(Number(session.userId)))?.data),
        login: session.data.login,
      });
      if (own) throw badInput([{ pointer: '/password', ...own }]);
      const hash = await hashPassword(password);
      await app.db.transaction(async (tx) => {
        await codes.spendCode(tx, uid, verified, '/code');
        await users.setPassword(String(session.userId), hash, tx);
        await tx.query('UPDATE refresh_token SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [
          session.userId,
        ]);
        await codes.update(tx, uid, { status: 'finished' });
      });
      return { ok: true };
    },
  );
};

export default passwordReset;
