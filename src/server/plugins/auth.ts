import fp from 'fastify-plugin';
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError, errorBodySchema } from '../errors.ts';
import { objectReply, okReply } from '../reply-schemas.ts';
import { systemActor, userActor, type Actor, type RowScope } from '../auth/access.ts';
import { syncDefaultRoles } from '../auth/role-sync.ts';
import type { HiddenFields, ReadOnlyFields } from '../../shared/ability.ts';
import { adminPasswordUsable, checkPassword, DUMMY_HASH, hashPassword, identityOfUser, passwordProblem } from '../auth/passwords.ts';
import { createRefreshTokens, createTokenService } from '../auth/tokens.ts';
import { createRevokedFamilies } from '../auth/revoked-families.ts';
import { logAttempt, throttleWait } from '../auth/throttle.ts';
import { createSignatureSignIn, type ExternalIdentity } from '../auth/external.ts';
import { sessionReply, sessionReplySchema, type PersonNames } from '../auth/session-reply.ts';
import { withDelegation, type DelegationTarget } from '../auth/delegation.ts';
import { AUTH_TABLES } from '../auth/tables.ts';
import { SIGNATURE_TABLES } from '../auth/signature/index.ts';

/** Credentials, tokens, attempts; the challenges signature sign-in uses up. */
export const migrations = [AUTH_TABLES, SIGNATURE_TABLES];

interface UserData {
  username: string;
  firstName: string;
  lastName: string;
  middleName?: string;
  isOuter: boolean;
  canLogin: boolean;
  roles: string[];
  regionId?: number;
  employeeId?: number;
  photo?: string[];
}

/** The fields of a staff card the session reads (access.json `employeeEntity`). */
interface StaffCardData extends Record<string, unknown> {
  firstName?: string;
  lastName?: string;
  middleName?: string;
  canLogin?: boolean;
}

/** How long a signed-in user's rights are reused before they are read again. */
const ACTOR_CACHE_MS = 10_000;

/**
 * Password sign-in, rotating refresh tokens, logout, and the actor of every request (from
 * the bearer token). Users and roles are records of the entities named in
 * schemas/_access/access.json; on every start the default roles are created or brought up to
 * the definitions (auth/role-sync.ts), and on the first an `admin`
 * user is created with ADMIN_PASSWORD, or a random password printed once.
 */
export default fp(
  async (app) => {
    const access = app.definitions.access;
    if (!access) throw new Error('schemas/_access/access.json is missing');
    const userTable = app.tables.get(access.userEntity)!;
    const roleTable = app.tables.get(access.roleEntity)!;
    const usernameColumn = userTable.columns.get('/username')!.column;
    const roleCodeColumn = roleTable.columns.get('/code')!.column;
    const tokens = await createTokenService(app.db, process.env.AUTH_SECRET || undefined, app.config.accessTokenSeconds);
    // Access tokens of a revoked family (sign-out, reuse, password reset) are refused from memory:
    // no query per request. The margin covers a refresh that raced the revocation.
    const revokedFamilies = createRevokedFamilies(app.db, {
      windowSeconds: tokens.lifetimeSeconds + 60,
      pollMs: app.config.revocationPollMs,
      onError: (error) => app.log.error({ err: error }, 'reading revoked sessions failed'),
    });
    await revokedFamilies.load();
    revokedFamilies.start();
    app.addHook('onClose', async () => revokedFamilies.stop());
    const refresh = createRefreshTokens(app.db, (family) => revokedFamilies.add(family));
    const system = systemActor();
    const userDef = app.definitions.entities.get(access.userEntity)!;
    const delegationTarget: DelegationTarget = { entity: access.userEntity, subject: userDef.manifest.subject, ...(userDef.manifest.scope?.regionField ? { regionField: userDef.manifest.scope.regionField } : {}) };
    const employeeTable = access.employeeEntity ? app.tables.get(access.employeeEntity) : undefined;
    // The card's user field as SQL: its typed, indexed column where the grid filters by it.
    const employeeUserColumn = access.employeeUserField && employeeTable
      ? employeeTable.columns.get(access.employeeUserField)?.column ?? `(data #>> '{${access.employeeUserField.split('/').slice(1).join(',')}}')::bigint`
      : undefined;

    /** The photo file id of a record of an entity whose manifest declares `photo.field`. */
    const photoOf = (entity: string | undefined, data: Record<string, unknown> | undefined): string | undefined => {
      const field = entity ? app.definitions.entities.get(entity)?.manifest.photo?.field : undefined;
      const value = field && data ? data[field.slice(1)] : undefined;
      return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
    };

    /**
     * The staff card of a user (access.json `employeeEntity`): the one the user's employeeId
     * names, else the one whose user field names the user. Undefined without such an entity.
     */
    const staffCardOf = async (userId: string, user: UserData): Promise<{ id: number; data: StaffCardData } | undefined> => {
      if (!employeeTable) return undefined;
      const byUser = employeeUserColumn ? `OR ${employeeUserColumn} = $2` : '';
      const { rows } = await app.db.query<{ id: number; data: StaffCardData }>(
        `SELECT id, data FROM ${employeeTable.table} WHERE id = $1 ${byUser} ORDER BY (id = $1) DESC, id LIMIT 1`,
        employeeUserColumn ? [user.employeeId ?? 0, Number(userId)] : [user.employeeId ?? 0],
      );
      return rows[0] ? { id: Number(rows[0].id), data: rows[0].data } : undefined;
    };
    /**
     * The permissions a staff card's unit brings (access.json `unitPermissions`): those of the
     * records for the unit's type without a unit, and of the records for the unit itself.
     */
    const unitConfig = access.unitPermissions;
    const unitTable = unitConfig ? app.tables.get(unitConfig.unitEntity) : undefined;
    const grantTable = unitConfig ? app.tables.get(unitConfig.entity) : undefined;
    const jsonPath = (pointer: string): string => `{${pointer.split('/').slice(1).join(',')}}`;
    const unitPermissionsOf = async (card: StaffCardData | undefined): Promise<string[]> => {
      if (!unitConfig || !unitTable || !grantTable || !card) return [];
      const unitId = card[unitConfig.employeeUnitField.slice(1)];
      if (typeof unitId !== 'number') return [];
      const unit = await app.db.query<{ type: string | null }>(`SELECT data #>> '${jsonPath(unitConfig.unitTypeField)}' AS type FROM ${unitTable.table} WHERE id = $1`, [unitId]);
      const type = unit.rows[0]?.type ?? null;
      const { rows } = await app.db.query<{ permissions: string[] | null }>(
        `SELECT data #> '${jsonPath(unitConfig.permissionsField)}' AS permissions FROM ${grantTable.table}
         WHERE (data #>> '${jsonPath(unitConfig.typeField)}' = $1 AND data #>> '${jsonPath(unitConfig.unitField)}' IS NULL)
            OR data #>> '${jsonPath(unitConfig.unitField)}' = $2`,
        [type, String(unitId)],
      );
      return [...new Set(rows.flatMap((r) => (Array.isArray(r.permissions) ? r.permissions.filter((p) => typeof p === 'string') : [])))];
    };

    /** Whether a user may sign in: their own flag and, when linked, their staff card's. */
    const mayLogin = async (userId: string, user: UserData): Promise<boolean> =>
      user.canLogin && (await staffCardOf(userId, user))?.data.canLogin !== false;

    // --- every start: the default roles (created, or brought up to the definitions), then the admin
    const synced = await syncDefaultRoles(
      { db: app.db, store: app.store, roleEntity: access.roleEntity, table: roleTable.table, codeColumn: roleCodeColumn, actor: system },
      access.roles,
    );
    if (synced.changed.length) app.log.info({ roles: synced.changed }, 'default roles brought up to schemas/_access/access.json');
    const admin = await app.db.query<{ id: number }>(`SELECT id FROM ${userTable.table} WHERE ${usernameColumn} = 'admin'`);
    if (!admin.rows.length) {
      const chosen = app.config.adminPassword ?? process.env.ADMIN_PASSWORD;
      const password = chosen ?? randomBytes(12).toString('base64url');
      if (!adminPasswordUsable(password)) throw new Error('ADMIN_PASSWORD must be 8 to 128 characters');
      // The policy only warns here: the operator chose this password for the first sign-in,
      // where changing it is the first thing to do (and the change is held to the policy);
      // refusing to start would turn a weak bootstrap secret into an outage.
      const weak = chosen === undefined ? undefined : passwordProblem(chosen, { username: 'admin' });
      if (weak) app.log.warn({ rule: weak.key }, 'ADMIN_PASSWORD does not meet the password policy: sign in as admin and change it');
      const created = await app.store.create(access.userEntity, { username: 'admin', firstName: 'Administrator', lastName: 'Portal', isOuter: false, canLogin: true, roles: [access.adminRole] }, system);
      await app.db.query('INSERT INTO credential (user_id, password_hash) VALUES ($1, $2)', [String(created.id), await hashPassword(password)]);
      if (!app.config.adminPassword && !process.env.ADMIN_PASSWORD) {
        // Printed once, on the first start only: there is no default password anywhere.
        console.log(`\n  First start: the user "admin" was created with the password ${password}\n  Sign in and change it (or set ADMIN_PASSWORD before the first start).\n`);
      }
    }

    // --- the actor of each request ------------------------------------------------------------
    const cache = new Map<string, { actor: Actor; at: number }>();
    // The user fields that make someone a record's recipient (manifests' scope.recipients).
    const verifiedField = access.identityVerifiedField;
    const recipientUserFields = [...new Set([...app.definitions.entities.values()].flatMap((d) => (d.manifest.scope?.recipients ?? []).map((r) => r.userField)))];
    const loadActor = async (userId: string): Promise<Actor | undefined> => {
      const hit = cache.get(userId);
      if (hit && Date.now() - hit.at < ACTOR_CACHE_MS) return hit.actor;
      const { rows } = await app.db.query<{ data: UserData; status: string }>(`SELECT data, status FROM ${userTable.table} WHERE id = $1`, [Number(userId)]);
      const user = rows[0]?.data;
      if (!user?.canLogin) return undefined;
      const card = await staffCardOf(userId, user);
      if (card?.data.canLogin === false) return undefined;
      const roles = await app.db.query<{ data: { scope: RowScope; permissions: string[]; readOnlyFields?: ReadOnlyFields[]; hiddenFields?: HiddenFields[]; mayGrantRoles?: string[] } }>(`SELECT data FROM ${roleTable.table} WHERE ${roleCodeColumn} = ANY($1::text[])`, [user.roles]);
      const unit = await unitPermissionsOf(card?.data);
      // The unit's permissions add rights, never width: OWN is the narrowest scope, so the roles' wins.
      const grants = [...roles.rows.map((r) => r.data), ...(unit.length ? [{ scope: 'OWN' as RowScope, permissions: unit }] : [])];
      const grantable = roles.rows.flatMap((r) => (Array.isArray(r.data.mayGrantRoles) ? r.data.mayGrantRoles : []));
      const own = user as unknown as Record<string, unknown>;
      // Identifiers count only once proven (access.json identityVerifiedField): a typed-in PINFL must not open another person's records.
      const proven = verifiedField !== undefined && own[verifiedField.slice(1)] === true;
      const identifiers = proven ? Object.fromEntries(recipientUserFields.flatMap((f) => (typeof own[f.slice(1)] === 'string' && own[f.slice(1)] ? [[f, own[f.slice(1)] as string]] : []))) : {};
      const actor = withDelegation(userActor({ id: userId, username: user.username, isOuter: user.isOuter, regionId: user.regionId ?? null, roles: user.roles }, grants, identifiers), grantable, delegationTarget);
      cache.set(userId, { actor, at: Date.now() });
      return actor;
    };
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      if (!header?.startsWith('Bearer ')) return;
      const claims = await tokens.verify(header.slice(7).trim());
      const signedOut = claims?.sid !== undefined && revokedFamilies.has(claims.sid);
      const actor = claims && !signedOut && (await loadActor(claims.sub));
      // A token that is expired, forged, signed out or of a blocked user: the client refreshes or signs out.
      if (!actor) throw new ApiError(401, 'errors.sessionExpired');
      request.actor = actor;
    });

    const ipOf = (request: FastifyRequest): string => request.ip;
    /** Who the user is, as sign-in answers and the profile shows it (no tokens). */
    const sessionInfo = async (userId: string) => {
      const { rows } = await app.db.query<{ data: UserData }>(`SELECT data FROM ${userTable.table} WHERE id = $1`, [Number(userId)]);
      const user = rows[0]!.data;
      const actor = (await loadActor(userId))!;
      const card = await staffCardOf(userId, user);
      const names: PersonNames = card
        ? { firstName: card.data.firstName ?? user.firstName, lastName: card.data.lastName ?? user.lastName, middleName: card.data.middleName ?? null }
        : { firstName: user.firstName, lastName: user.lastName, middleName: user.middleName ?? null };
      const photo = photoOf(access.employeeEntity, card?.data) ?? photoOf(access.userEntity, user as unknown as Record<string, unknown>);
      const reply = sessionReply({ id: Number(userId), username: user.username, cardId: card?.id ?? user.employeeId ?? null, names, isOuter: user.isOuter, photo, permissions: actor.permissions, fieldRules: actor.fieldRules });
      return { reply, names, roles: user.roles };
    };
    /** The sign-in reply (spec §7): tokens of the refresh family `issued`, and who the user is. */
    const sessionPayload = async (userId: string, issued: { token: string; family: string }) => {
      const { reply: info } = await sessionInfo(userId);
      return {
        // The access token names its refresh family: signing out ends it here and closes the live sockets it opened.
        token: await tokens.sign({ sub: userId, username: info.username, sid: issued.family }),
        refreshToken: issued.token,
        expiresIn: tokens.lifetimeSeconds,
        ...info,
      };
    };
    const payloadFor = async (userId: string, remember: boolean) => sessionPayload(userId, await refresh.issue(userId, remember));

    /**
     * The account of someone proven by a signature or by OneID: the user with that PINFL
     * (else that TIN), or — on their first visit — a new outer user with the outer roles.
     */
    const provision = async (identity: ExternalIdentity): Promise<string | undefined> => {
      const pinflColumn = userTable.columns.get('/pinfl')?.column;
      const found = identity.pinfl && pinflColumn
        ? await app.db.query<{ id: number; data: UserData }>(`SELECT id, data FROM ${userTable.table} WHERE ${pinflColumn} = $1`, [identity.pinfl])
        : identity.tin
          ? await app.db.query<{ id: number; data: UserData }>(`SELECT id, data FROM ${userTable.table} WHERE data->>'tin' = $1 ORDER BY id LIMIT 1`, [identity.tin])
          : { rows: [] };
      const user = found.rows[0];
      if (user) return (await mayLogin(String(user.id), user.data)) ? String(user.id) : undefined;
      const key = identity.pinfl ?? identity.tin;
      if (!key) return undefined;
      const [lastName, firstName, middleName] = (identity.fullName ?? '').split(/\s+/);
      const created = await app.store.create(access.userEntity, {
        username: `${identity.provider}-${key}`.toLowerCase(),
        firstName: identity.firstName || firstName || '—',
        lastName: identity.lastName || lastName || '—',
        ...(identity.middleName || middleName ? { middleName: identity.middleName || middleName } : {}),
        isOuter: true,
        canLogin: true,
        roles: access.outerRoles,
        ...(identity.pinfl ? { pinfl: identity.pinfl } : {}),
        ...(identity.tin ? { tin: identity.tin } : {}),
        // Created from a proven identity. An account found by PINFL/TIN is not marked: whoever
        // registered it may have typed someone else's number (an administrator can check it).
        ...(verifiedField ? { [verifiedField.slice(1)]: true } : {}),
      }, system);
      return String(created.id);
    };
    /** The id of the user's own record of an entity: the user record itself, or their staff card. */
    const profileRecordId = async (userId: string, entity: string): Promise<number | undefined> => {
      if (entity === access.userEntity) return Number(userId);
      if (entity !== access.employeeEntity) return undefined;
      const { rows } = await app.db.query<{ data: UserData }>(`SELECT data FROM ${userTable.table} WHERE id = $1`, [Number(userId)]);
      return rows[0] ? (await staffCardOf(userId, rows[0].data))?.id : undefined;
    };
    app.decorate('authSessions', { payloadFor, provision, profileRecordId, actorOf: loadActor });

    const signatureSignIn = createSignatureSignIn(app, provision, payloadFor);

    app.post<{ Body: { username?: string; password?: string; rememberMe?: boolean; signedData?: string; challenge?: string; TIN?: string; tin?: string; INN?: string; PNFL?: string } }>('/api/auth-payload', {
      schema: {
        tags: ['Auth'],
        summary: 'Sign in with username and password, or with `signedData` (CMS over the challenge; `challenge` too when detached) and TIN/PNFL',
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
    }, async (request, reply) => {
      if (request.body.signedData !== undefined) return signatureSignIn(request as never);
      if (typeof request.body.username !== 'string' || typeof request.body.password !== 'string') {
        throw new ApiError(400, 'errors.invalidInput', { fieldErrors: [
          ...(typeof request.body.username !== 'string' ? [{ pointer: '/username', key: 'validation.required', params: {} }] : []),
          ...(typeof request.body.password !== 'string' ? [{ pointer: '/password', key: 'validation.required', params: {} }] : []),
        ] });
      }
      const username = request.body.username.trim().toLowerCase();
      const ip = ipOf(request);
      const wait = await throttleWait(app.db, username, ip, app.config.clock());
      if (wait > 0) {
        await logAttempt(app.db, { username, ip, outcome: 'throttled', method: 'password' }, app.config.clock());
        reply.header('retry-after', String(wait));
        throw new ApiError(429, 'errors.tooManyAttempts', { params: { seconds: wait } });
      }
      const { rows } = await app.db.query<{ id: number; data: UserData; hash: string | null }>(
        `SELECT u.id, u.data, c.password_hash AS hash FROM ${userTable.table} u LEFT JOIN credential c ON c.user_id = u.id::text WHERE ${usernameColumn.replace(/^/, 'u.')} = $1`,
        [username],
      );
      const user = rows[0];
      // The same work whether or not the user exists, and the same answer for every failure.
      const ok = await checkPassword(user?.hash ?? DUMMY_HASH, request.body.password!);
      const allowed = Boolean(user) && (await mayLogin(String(user!.id), user!.data));
      if (!user || !user.hash || !ok || !allowed) {
        await logAttempt(app.db, { username, ip, outcome: user && ok && !allowed ? 'disabled' : 'bad-credentials', method: 'password' }, app.config.clock());
        throw new ApiError(401, 'errors.badCredentials');
      }
      await logAttempt(app.db, { username, ip, outcome: 'ok', method: 'password' }, app.config.clock());
      cache.delete(String(user.id));
      return payloadFor(String(user.id), request.body.rememberMe === true);
    });

    app.post<{ Body: { grant_type?: string; refresh_token?: string } }>('/api/o/token/', {
      schema: {
        tags: ['Auth'],
        summary: 'Refresh grant: a used refresh token is replaced; a reused one ends its whole family',
        body: { type: 'object', required: ['grant_type', 'refresh_token'], properties: { grant_type: { const: 'refresh_token' }, refresh_token: { type: 'string', maxLength: 200 }, client_id: { type: 'string' }, client_secret: { type: 'string' } } },
        response: {
          200: { ...sessionReplySchema, properties: { ...(sessionReplySchema.properties as object), access_token: { type: 'string' }, refresh_token: { type: 'string' }, token_type: { type: 'string' }, expires_in: { type: 'integer' } } },
          401: objectReply('The refresh token is spent, revoked or unknown', { message: { type: 'string' }, detail: { type: 'string' } }),
        },
      },
    }, async (request, reply) => {
      const next = await refresh.rotate(request.body.refresh_token!);
      const actor = next && (await loadActor(next.userId));
      if (!next || !actor) {
        const message = app.translator.t(request.locale, 'errors.sessionExpired');
        return reply.code(401).send({ message, detail: message });
      }
      // The sign-in reply's fields (spec §7: uploadPath among them — a new avatar, changed
      // permissions), plus the OAuth names of the same tokens.
      const payload = await sessionPayload(next.userId, next);
      return {
        access_token: payload.token,
        refresh_token: payload.refreshToken,
        token_type: 'Bearer',
        expires_in: payload.expiresIn,
        ...payload,
      };
    });

    // Sign-out in a scope of its own: here (only) a JSON content type with no bytes is an empty
    // body, as clients that sign out by the bearer token alone send it.
    await app.register(async (scope) => {
      const parseJson = scope.getDefaultJsonParser('error', 'error');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
        if (text === '') done(null, {});
        else parseJson(request, String(text), done);
      });
      scope.post<{ Body: { refresh_token?: string } }>('/api/logout', {
        schema: {
          tags: ['Auth'],
          summary: 'Sign out this device: the refresh token\'s family (and the bearer token\'s) is revoked — its access tokens stop working too; other devices stay signed in',
          body: { type: 'object', properties: { refresh_token: { type: 'string', maxLength: 200 } } },
          response: { 200: okReply },
        },
        // No body at all is signing out by the bearer token alone.
        preValidation: async (request) => {
          request.body ??= {};
        },
      }, async (request) => {
        if (request.body?.refresh_token) await refresh.revoke(request.body.refresh_token);
        // The bearer token names its family too: a client that lost its refresh token still signs out.
        const header = request.headers.authorization;
        const claims = header?.startsWith('Bearer ') ? await tokens.verify(header.slice(7).trim()) : undefined;
        if (claims?.sid && claims.sub === request.actor.id && !revokedFamilies.has(claims.sid)) await refresh.revokeFamily(claims.sid);
        if (request.actor.id) cache.delete(request.actor.id);
        return { ok: true };
      });
    });

    app.post<{ Body: { userId: number; password: string; confirmPassword?: string } }>('/api/auth/set-password', {
      schema: {
        tags: ['Auth'],
        summary: 'Set another user\'s password (needs "update User" and sight of that user; the password policy applies: 12–128 characters, not the username or e-mail, not easy to guess); the user\'s sessions end',
        body: { type: 'object', additionalProperties: false, required: ['userId', 'password'], properties: { userId: { type: 'integer', minimum: 1 }, password: { type: 'string', maxLength: 1000 }, confirmPassword: { type: 'string', maxLength: 1000 } } },
        response: { 200: okReply, 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
      },
    }, async (request) => {
      // Reading and updating the user record through the store applies the caller's rights and scope.
      await app.store.get(access.userEntity, request.body.userId, request.actor);
      if (!request.actor.ability.can('update', app.definitions.entities.get(access.userEntity)!.manifest.subject)) throw new ApiError(403, 'errors.forbidden');
      const { password, confirmPassword } = request.body;
      // The user's own identifiers, read directly: the caller may see fewer fields than the policy needs.
      const { rows: targetRows } = await app.db.query<{ data: Record<string, unknown> }>(`SELECT data FROM ${userTable.table} WHERE id = $1`, [request.body.userId]);
      const weak = passwordProblem(password, identityOfUser(targetRows[0]?.data));
      const problems = [
        ...(weak ? [{ pointer: '/password', ...weak }] : []),
        ...(confirmPassword !== undefined && confirmPassword !== password ? [{ pointer: '/confirmPassword', key: 'validation.passwordMismatch', params: {} }] : []),
      ];
      if (problems.length) throw new ApiError(400, 'errors.invalidInput', { fieldErrors: problems });
      // A password set by someone else replaces one that may be known to others: the user's
      // sessions (refresh tokens) end with it, as after "forgot password".
      const hash = await hashPassword(password);
      await app.db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO credential (user_id, password_hash) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()`,
          [String(request.body.userId), hash],
        );
        await tx.query('UPDATE refresh_token SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [String(request.body.userId)]);
      });
      cache.delete(String(request.body.userId));
      return { ok: true };
    });

    app.post<{ Body: { oldPassword: string; newPassword: string; confirmPassword?: string } }>('/api/auth/change-password', {
      schema: {
        tags: ['Auth'],
        summary: 'Change one\'s own password: the current one, the new one (the password policy: 12–128 characters, not the username, not easy to guess) and, when given, its confirmation',
        body: { type: 'object', additionalProperties: false, required: ['oldPassword', 'newPassword'], properties: { oldPassword: { type: 'string', maxLength: 1000 }, newPassword: { type: 'string', maxLength: 1000 }, confirmPassword: { type: 'string', maxLength: 1000 } } },
        response: { 200: okReply, 400: errorBodySchema, 401: errorBodySchema },
      },
    }, async (request) => {
      const id = request.actor.id;
      if (!id) throw new ApiError(401, 'errors.unauthorized');
      // The form's own mistakes first: they are told without spending a password check.
      const { newPassword, confirmPassword } = request.body;
      const { rows: own } = await app.db.query<{ data: Record<string, unknown> }>(`SELECT data FROM ${userTable.table} WHERE id = $1`, [Number(id)]);
      const weak = passwordProblem(newPassword, identityOfUser(own[0]?.data));
      const formProblems = [
        ...(weak ? [{ pointer: '/newPassword', ...weak }] : []),
        ...(confirmPassword !== undefined && confirmPassword !== newPassword ? [{ pointer: '/confirmPassword', key: 'validation.passwordMismatch', params: {} }] : []),
      ];
      if (formProblems.length) throw new ApiError(400, 'errors.invalidInput', { fieldErrors: formProblems });
      const { rows } = await app.db.query<{ password_hash: string }>('SELECT password_hash FROM credential WHERE user_id = $1', [id]);
      if (!rows[0] || !(await checkPassword(rows[0].password_hash, request.body.oldPassword))) {
        throw new ApiError(400, 'errors.invalidInput', { fieldErrors: [{ pointer: '/oldPassword', key: 'validation.wrongPassword', params: {} }] });
      }
      await app.db.query('UPDATE credential SET password_hash = $2, updated_at = now() WHERE user_id = $1', [id, await hashPassword(request.body.newPassword)]);
      return { ok: true };
    });

    app.get('/api/auth/profile', {
      schema: {
        tags: ['Auth'],
        summary: 'The signed-in user\'s own profile: names, roles (code and name), staff card and avatar',
        querystring: { type: 'object', additionalProperties: false, properties: { lang: { type: 'string' } } },
        response: {
          200: objectReply('Who I am', { id: { type: 'integer' }, username: { type: 'string' }, isOuter: { type: 'boolean' }, roles: { type: 'array', items: objectReply('A role: code and name') }, permissions: { type: 'array', items: { type: 'string' } } }),
          401: errorBodySchema,
        },
      },
    }, async (request) => {
      const id = request.actor.id;
      if (!id) throw new ApiError(401, 'errors.unauthorized');
      const { reply, names, roles: codes } = await sessionInfo(id);
      const roles = await app.db.query<{ data: { code: string; name: string } }>(`SELECT data FROM ${roleTable.table} WHERE ${roleCodeColumn} = ANY($1::text[]) ORDER BY ${roleCodeColumn}`, [codes]);
      return {
        id: reply.id,
        username: reply.username,
        cardId: reply.employeeId,
        names,
        isOuter: reply.isOuter,
        uploadPath: reply.uploadPath,
        roles: roles.rows.map((r) => ({ code: r.data.code, name: r.data.name })),
        permissions: reply.permissions,
      };
    });
  },
  { name: 'auth', dependencies: ['store', 'http'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Sessions for sign-in methods outside this plugin (OneID). */
    authSessions: {
      payloadFor(userId: string, remember: boolean): Promise<Record<string, unknown>>;
      provision(identity: ExternalIdentity): Promise<string | undefined>;
      /** The id of the user's own record of an entity (the user record, or their staff card), if any. */
      profileRecordId(userId: string, entity: string): Promise<number | undefined>;
      /**
       * The user's actor as a request with their token gets it (roles, unit permissions, field
       * rules), or undefined when they may not sign in (account or staff card `canLogin` false).
       */
      actorOf(userId: string): Promise<Actor | undefined>;
    };
  }
}
