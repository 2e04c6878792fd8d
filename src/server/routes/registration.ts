import type { FastifyPluginAsync } from 'fastify';
import { ApiError, badInput } from '../errors.ts';
import { outerUserRoles, systemActor } from '../auth/access.ts';
import { hashPassword, NEW_PASSWORD_CHECKS_PER_MINUTE, passwordProblem } from '../auth/passwords.ts';
import {
  CODE_TTL_SECONDS,
  CONFIRMATION_TABLES,
  createConfirmations,
  normalizePhone,
  RESEND_COOLDOWN_SECONDS,
  withRetryAfter,
  type ConfirmationSession,
} from '../auth/confirmation.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import { createServerAjv } from '../validation.ts';
import { portalFormats } from '../../shared/validation/vocabulary.ts';
import type { Queryable } from '../db/database.ts';

/** The confirmation sessions of registration. */
export const migrations = [CONFIRMATION_TABLES];

type FieldError = NonNullable<ApiError['fieldErrors']>[number];
const fieldError = (pointer: string, key: string, params: Record<string, unknown> = {}): FieldError => ({
  pointer,
  key,
  params,
});

const sessionReply = {
  type: 'object',
  additionalProperties: true,
  description:
    'The reply of sign-in (POST /api/auth-payload): token, refreshToken, id, username, isOuter, permissions…',
} as const;
const uidSchema = { type: 'string', format: 'uuid' } as const;

/** Spec §5 messages for values already used, by the user-record field they are about. */
const TAKEN_KEYS: Record<string, string> = {
  '/username': 'registration.errors.usernameUsed',
  '/passport': 'registration.errors.passportUsed',
  '/tin': 'registration.errors.taxIdExists',
  '/pinfl': 'registration.errors.taxIdExists',
};

/** `+99890-123-45-67` → `99890…` for SMS; an e-mail address as it is (spec §5). */
function contactOf(value: string): { channel: 'phone' | 'mail'; recipient: string } {
  return value.includes('@')
    ? { channel: 'mail', recipient: value.trim().toLowerCase() }
    : { channel: 'phone', recipient: normalizePhone(value.trim()) };
}

/** The middle of a phone number or an address hidden: what the reply may show. */
const maskContact = (recipient: string): string =>
  recipient.includes('@')
    ? recipient.replace(/^(.)[^@]*(@.*)$/, '$1***$2')
    : `${recipient.slice(0, 3)}*****${recipient.slice(-2)}`;

/**
 * Self-registration of citizens and business users (spec §7): username availability, the
 * tax-ID check that opens a registration session (`uid`), a confirmation code to a phone or
 * an e-mail address, its confirmation, and the finish that creates the user through the
 * store (validated and audited like every record) with a password, and signs them in.
 */
const registration: FastifyPluginAsync = async (app) => {
  const access = app.definitions.access!;
  const userDef = app.definitions.entities.get(access.userEntity)!;
  const users = app.users;
  const codes = createConfirmations(app.db, app.config.clock);
  const system = systemActor();
  const validateUsername = createServerAjv().compile(
    resolveFieldSchema(userDef.schema, '/username') ?? { type: 'string' },
  );

  /** Problems with a username: its format, or that somebody has it. */
  const usernameProblems = async (username: string): Promise<FieldError[]> => {
    if (!validateUsername(username)) return [fieldError('/username', 'registration.errors.usernameFormat')];
    return (await users.taken('/username', username)) ? [fieldError('/username', TAKEN_KEYS['/username']!)] : [];
  };

  /** The tax ID of the session's kind: format, then that nobody registered it. */
  const taxIdProblems = async (isYur: boolean, value: string | undefined): Promise<FieldError[]> => {
    const pointer = isYur ? '/tin' : '/pinfl';
    if (!value) return [fieldError(pointer, 'validation.required')];
    if (!(isYur ? portalFormats.stir : portalFormats.pinfl).test(value))
      return [fieldError(pointer, 'registration.errors.realTaxId')];
    return (await users.taken(pointer, value)) ? [fieldError(pointer, TAKEN_KEYS[pointer]!)] : [];
  };

  const liveSession = async (uid: unknown, tx?: Queryable): Promise<ConfirmationSession> => {
    const session = await codes.find(uid, 'registration', tx);
    if (!session) throw new ApiError(400, 'confirmation.errors.sessionExpired');
    return session;
  };

  app.get<{ Querystring: { username: string } }>(
    '/api/user/check/no-username',
    {
      schema: {
        tags: ['Registration'],
        summary: 'Whether a username is free (the registration form asks while it is typed)',
        querystring: {
          type: 'object',
          required: ['username'],
          properties: { username: { type: 'string', maxLength: 100 } },
        },
        response: {
          200: {
            type: 'object',
            required: ['available'],
            properties: { available: { type: 'boolean' }, message: { type: 'string' } },
          },
        },
      },
    },
    async (request) => {
      const problems = await usernameProblems(request.query.username.trim().toLowerCase());
      return problems.length
        ? { available: false, message: app.translator.t(request.locale, problems[0]!.key) }
        : { available: true };
    },
  );

  app.get<{ Querystring: { tin?: string; pinfl?: string; uid?: string; isYur: boolean; position?: string } }>(
    '/api/registration/check-inn',
    {
      schema: {
        tags: ['Registration'],
        summary:
          'Checks the tax ID (isYur: 9-digit STIR of a business, else 14-digit PINFL) and opens or updates the registration session',
        querystring: {
          type: 'object',
          required: ['isYur'],
          properties: {
            tin: { type: 'string', maxLength: 20 },
            pinfl: { type: 'string', maxLength: 20 },
            uid: uidSchema,
            isYur: { type: 'boolean' },
            position: { type: 'string', maxLength: 200 },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['uid', 'isYur'],
            properties: { uid: uidSchema, isYur: { type: 'boolean' } },
          },
        },
      },
    },
    async (request, reply) => {
      const { isYur, uid } = request.query;
      const value = (isYur ? request.query.tin : request.query.pinfl)?.trim();
      const problems = await taxIdProblems(isYur, value);
      if (problems.length) throw badInput(problems);
      const identity = {
        isYur,
        ...(isYur ? { tin: value } : { pinfl: value }),
        ...(isYur && request.query.position?.trim() ? { position: request.query.position.trim() } : {}),
      };
      const existing = uid ? await codes.find(uid, 'registration') : undefined;
      if (existing) {
        const { isYur: _i, tin: _t, pinfl: _p, position: _o, ...rest } = existing.data;
        await codes.update(app.db, existing.uid, { data: { ...rest, ...identity } });
        return { uid: existing.uid, isYur };
      }
      await codes.throttle(request.ip, 'sessions').catch((e: unknown) => withRetryAfter(reply, e));
      return { uid: await codes.start('registration', request.ip, identity), isYur };
    },
  );

  app.post<{ Querystring: { uid?: string }; Body: { contact: string } }>(
    '/api/registration/send/confirmation/code/to-confirmation',
    {
      schema: {
        tags: ['Registration'],
        summary:
          'Sends a 6-digit code (valid 5 min, one per minute) to a phone (+ and dashes removed) or an e-mail address',
        querystring: { type: 'object', properties: { uid: uidSchema } },
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['contact'],
          properties: { contact: { type: 'string', format: 'phoneOrEmail', maxLength: 255 } },
        },
        response: {
          200: {
            type: 'object',
            required: ['uid', 'channel', 'sentTo', 'expiresIn', 'resendIn'],
            properties: {
              uid: uidSchema,
              channel: { enum: ['phone', 'mail'] },
              sentTo: { type: 'string' },
              expiresIn: { type: 'integer' },
              resendIn: { type: 'integer' },
            },
          },
        },
      },
    },
    async (request, reply) => {
      let uid = request.query.uid;
      if (uid) await liveSession(uid);
      else {
        // The spec's uid is optional: a registration may begin with the contact.
        await codes.throttle(request.ip, 'sessions').catch((e: unknown) => withRetryAfter(reply, e));
        uid = await codes.start('registration', request.ip, {});
      }
      await codes.throttle(request.ip, 'sends').catch((e: unknown) => withRetryAfter(reply, e));
      const { channel, recipient } = contactOf(request.body.contact);
      await app.db
        .transaction(async (tx) => {
          const session = await liveSession(uid, tx);
          const code = await codes.issueCode(tx, uid!, request.ip, channel, recipient);
          await codes.update(tx, uid!, { data: { ...session.data, contact: request.body.contact.trim() } });
          await app.notify.sender.send(
            {
              channel: channel === 'phone' ? 'sms' : 'email',
              to: recipient,
              templateKey: 'confirmation.message.registration',
              params: { code, minutes: CODE_TTL_SECONDS / 60 },
              locale: request.locale,
            },
            tx,
          );
        })
        .catch((e: unknown) => withRetryAfter(reply, e));
      app.notify.worker.kick();
      return {
        uid,
        channel,
        sentTo: maskContact(recipient),
        expiresIn: CODE_TTL_SECONDS,
        resendIn: RESEND_COOLDOWN_SECONDS,
      };
    },
  );

  for (const channel of ['phone', 'mail'] as const) {
    app.post<{ Querystring: { uid: string; token: string; username: string } }>(
      `/api/registration/confirmation/${channel}-confirmed`,
      {
        schema: {
          tags: ['Registration'],
          summary: `Confirms the code sent to the ${channel === 'phone' ? 'phone' : 'e-mail address'} (token) and reserves nothing yet: the username is checked again at finish`,
          querystring: {
            type: 'object',
            required: ['uid', 'token', 'username'],
            properties: {
              uid: uidSchema,
              token: { type: 'string', maxLength: 20 },
              username: { type: 'string', maxLength: 100 },
            },
          },
          response: {
            200: {
              type: 'object',
              required: ['uid', 'confirmed', 'username'],
              properties: { uid: uidSchema, confirmed: { type: 'boolean' }, username: { type: 'string' } },
            },
          },
        },
      },
      async (request) => {
        const { uid, token } = request.query;
        const username = request.query.username.trim().toLowerCase();
        const session = await liveSession(uid);
        // The username first: a taken name must not cost one of the five tries of the code.
        const problems = await usernameProblems(username);
        if (problems.length) throw badInput(problems);
        if (session.status !== 'code-sent' || session.channel !== channel)
          throw badInput([fieldError('/token', 'confirmation.errors.noCode')]);
        await codes.verifyCode(uid, token, '/token');
        await codes.update(app.db, uid, { status: 'confirmed', data: { ...session.data, username } });
        return { uid, confirmed: true, username };
      },
    );
  }

  app.post<{
    Body: {
      uid: string;
      lastName: string;
      firstName: string;
      middleName?: string;
      passport: string;
      password: string;
      confirmPassword: string;
    };
  }>(
    '/api/registration/finish',
    {
      config: { publicRateLimit: { bucket: 'new-password', perMinute: NEW_PASSWORD_CHECKS_PER_MINUTE } },
      schema: {
        tags: ['Registration'],
        summary:
          'Creates the confirmed user with a password (typed twice; the password policy: 12–128 characters, not the username or e-mail, not easy to guess) and signs them in',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['uid', 'lastName', 'firstName', 'passport', 'password', 'confirmPassword'],
          properties: {
            uid: uidSchema,
            lastName: { type: 'string', minLength: 1, maxLength: 100 },
            firstName: { type: 'string', minLength: 1, maxLength: 100 },
            middleName: { type: 'string', maxLength: 100 },
            passport: {
              type: 'string',
              pattern: '^[A-Z]{2}[0-9]{7}$',
              description: 'Series and number, e.g. AA1234567',
            },
            password: { type: 'string', maxLength: 1000 },
            confirmPassword: { type: 'string', maxLength: 1000 },
          },
        },
        response: { 200: sessionReply },
      },
    },
    async (request) => {
      const body = request.body;
      const session = await liveSession(body.uid);
      if (session.status !== 'confirmed') throw new ApiError(400, 'registration.errors.notConfirmed');
      const data = session.data as {
        isYur?: boolean;
        tin?: string;
        pinfl?: string;
        position?: string;
        username?: string;
        contact?: string;
      };
      if (data.isYur === undefined) throw new ApiError(400, 'registration.errors.noTaxId');
      const problems: FieldError[] = [];
      // Everything the person typed on the way here is theirs: the policy looks for it in the password.
      const weak = passwordProblem(body.password, {
        username: data.username,
        login: data.contact,
        related: [body.lastName, body.firstName, body.middleName, body.passport, data.tin, data.pinfl],
      });
      if (weak) problems.push(fieldError('/password', weak.key, weak.params));
      else if (body.password !== body.confirmPassword)
        problems.push(fieldError('/confirmPassword', 'registration.errors.passwordsDiffer'));
      if (await users.taken('/passport', body.passport))
        problems.push(fieldError('/passport', TAKEN_KEYS['/passport']!));
      problems.push(
        ...(await usernameProblems(data.username!)),
        ...(await taxIdProblems(data.isYur, data.isYur ? data.tin : data.pinfl)),
      );
      if (problems.length) throw badInput(problems);
      const contact = data.contact ? contactOf(data.contact) : undefined;
      const hash = await hashPassword(body.password);
      const userId = await app.db.transaction(async (tx) => {
        const created = await app.store
          .create(
            access.userEntity,
            {
              username: data.username,
              lastName: body.lastName.trim(),
              firstName: body.firstName.trim(),
              ...(body.middleName?.trim() ? { middleName: body.middleName.trim() } : {}),
              isOuter: true,
              canLogin: true,
              roles: outerUserRoles(access, data.isYur === true),
              passport: body.passport,
              ...(data.isYur ? { tin: data.tin } : { pinfl: data.pinfl }),
              ...(data.position ? { position: data.position } : {}),
              ...(contact?.channel === 'mail'
                ? { email: data.contact!.trim() }
                : contact
                  ? { phone: data.contact!.trim() }
                  : {}),
            },
            system,
            { tx },
          )
          .catch((error: unknown) => {
            // Somebody registered the same value a moment ago: the unique index answers, in the spec's words.
            if (error instanceof ApiError && error.fieldErrors)
              throw badInput(
                error.fieldErrors.map((f) =>
                  TAKEN_KEYS[f.pointer] && f.key === 'validation.unique'
                    ? fieldError(f.pointer, TAKEN_KEYS[f.pointer]!)
                    : f,
                ),
              );
            throw error;
          });
        await users.addPassword(String(created.id), hash, tx);
        await codes.update(tx, body.uid, { status: 'finished', userId: String(created.id) });
        return String(created.id);
      });
      return app.authSessions.payloadFor(userId, false);
    },
  );
};

export default registration;
