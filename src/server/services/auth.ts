import fp from 'fastify-plugin';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../errors.ts';
import { systemActor } from '../auth/access.ts';
import { createActorLoader } from '../auth/actors.ts';
import { syncDefaultRoles } from '../auth/role-sync.ts';
import { adminPasswordUsable, hashPassword, passwordProblem } from '../auth/passwords.ts';
import { createRefreshTokens, createTokenService } from '../auth/tokens.ts';
import { createRevokedFamilies } from '../auth/revoked-families.ts';
import { createAuthSessions, type AuthSessions } from '../auth/sessions.ts';
import { AUTH_TABLES } from '../auth/tables.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Sessions (auth/sessions.ts): the sign-in reply, the actor of a user, accounts of people
     * proven by a signature or OneID, and the tokens — for the sign-in routes, registration,
     * files (one's own photo) and the live socket.
     */
    authSessions: AuthSessions;
  }
}

/** Credentials, tokens, sign-in attempts, the signing secret, the default roles as last applied. */
export const migrations = [AUTH_TABLES];

/**
 * Sign-in as a service: the access and refresh tokens, the revoked sessions known in memory,
 * and the actor of every request (from the bearer token; the routes are routes/auth/). Users
 * and roles are records of the entities named in schemas/_access/access.json; on every start
 * the default roles are created or brought up to the definitions (auth/role-sync.ts), and on
 * the first an `admin` user is created with ADMIN_PASSWORD, or a random password printed once.
 */
export default fp(
  async (app) => {
    const access = app.definitions.access;
    if (!access) throw new Error('schemas/_access/access.json is missing');
    const roleTable = app.tables.get(access.roleEntity)!;
    const roleCodeColumn = roleTable.columns.get('/code')!.column;
    const tokens = await createTokenService(
      app.db,
      process.env.AUTH_SECRET || undefined,
      app.config.accessTokenSeconds,
    );
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
    const actors = createActorLoader(app.db, app.definitions, app.tables, access, app.users);
    const system = systemActor();

    // --- every start: the default roles (created, or brought up to the definitions), then the admin
    const synced = await syncDefaultRoles(
      {
        db: app.db,
        store: app.store,
        roleEntity: access.roleEntity,
        table: roleTable.table,
        codeColumn: roleCodeColumn,
        actor: system,
      },
      access.roles,
    );
    if (synced.changed.length)
      app.log.info({ roles: synced.changed }, 'default roles brought up to schemas/_access/access.json');
    if ((await app.users.idByUsername('admin')) === undefined) {
      const chosen = app.config.adminPassword ?? process.env.ADMIN_PASSWORD;
      const password = chosen ?? randomBytes(12).toString('base64url');
      if (!adminPasswordUsable(password)) throw new Error('ADMIN_PASSWORD must be 8 to 128 characters');
      // The policy only warns here: the operator chose this password for the first sign-in,
      // where changing it is the first thing to do (and the change is held to the policy);
      // refusing to start would turn a weak bootstrap secret into an outage.
      const weak = chosen === undefined ? undefined : passwordProblem(chosen, { username: 'admin' });
      if (weak)
        app.log.warn(
          { rule: weak.key },
          'ADMIN_PASSWORD does not meet the password policy: sign in as admin and change it',
        );
      const created = await app.store.create(
        access.userEntity,
        {
          username: 'admin',
          firstName: 'Administrator',
          lastName: 'Portal',
          isOuter: false,
          canLogin: true,
          roles: [access.adminRole],
        },
        system,
      );
      await app.users.addPassword(String(created.id), await hashPassword(password));
      if (!app.config.adminPassword && !process.env.ADMIN_PASSWORD) {
        // Printed once, on the first start only: there is no default password anywhere.
        console.log(
          `\n  First start: the user "admin" was created with the password ${password}\n  Sign in and change it (or set ADMIN_PASSWORD before the first start).\n`,
        );
      }
    }

    // --- the actor of each request ------------------------------------------------------------
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      if (!header?.startsWith('Bearer ')) return;
      const claims = await tokens.verify(header.slice(7).trim());
      const signedOut = claims?.sid !== undefined && revokedFamilies.has(claims.sid);
      const actor = claims && !signedOut && (await actors.actorOf(claims.sub));
      // A token that is expired, forged, signed out or of a blocked user: the client refreshes or signs out.
      if (!actor) throw new ApiError(401, 'errors.sessionExpired');
      request.actor = actor;
    });

    app.decorate(
      'authSessions',
      createAuthSessions({
        db: app.db,
        store: app.store,
        registry: app.definitions,
        tables: app.tables,
        access,
        tokens,
        refresh,
        revokedFamilies,
        actors,
        users: app.users,
      }),
    );
  },
  { name: 'auth', dependencies: ['store', 'http', 'users'] },
);
