import type { Database } from '../db/database.ts';
import type { EntityTable } from '../db/entity-table.ts';
import type { DefinitionRegistry } from '../../definitions/registry.ts';
import type { AccessDefinition } from '../../generated/meta.ts';
import type { EntityStore } from '../store/entity-store.ts';
import { systemActor, type Actor } from './access.ts';
import type { ActorLoader, UserData } from './actors.ts';
import type { ExternalIdentity } from './external.ts';
import type { RevokedFamilies } from './revoked-families.ts';
import { sessionReply, type PersonNames } from './session-reply.ts';
import type { RefreshTokens, TokenService } from './tokens.ts';
import type { UserDirectory } from './user-directory.ts';
import { setAt, valueAt } from '../../shared/pointer.ts';

/** The sign-in reply (spec §7): tokens, and who the user is. */
export type SessionPayload = ReturnType<typeof sessionReply> & {
  token: string;
  refreshToken: string;
  expiresIn: number;
};

/**
 * Sessions: who a user is, their actor and the tokens of their sign-ins — what the sign-in
 * routes (password, signature, OneID), registration and the live socket share. Users and
 * roles are records of the entities schemas/_access/access.json names.
 */
export interface AuthSessions extends Pick<ActorLoader, 'actorOf' | 'forget' | 'mayLogin'> {
  /** Signs access tokens and verifies them (auth/tokens.ts). */
  readonly tokens: TokenService;
  /** Rotating refresh tokens, by family. */
  readonly refresh: RefreshTokens;
  /** The families signed out (or reused) lately, known in memory on every instance. */
  readonly revokedFamilies: RevokedFamilies;
  /** A new refresh family for the user (`remember`: 30 days) and the sign-in reply of it. */
  payloadFor(userId: string, remember: boolean): Promise<SessionPayload>;
  /** The sign-in reply for the refresh token `issued` (a new sign-in, or a rotation). */
  payloadOf(userId: string, issued: { token: string; family: string }): Promise<SessionPayload>;
  /** Who the user is, as sign-in answers it and the profile shows it (no tokens); their names and role codes. */
  sessionInfo(userId: string): Promise<{ reply: ReturnType<typeof sessionReply>; names: PersonNames; roles: string[] }>;
  /**
   * The account of someone proven by a signature or by OneID: the user with that PINFL
   * (else that TIN), or — on their first visit — a new outer user with the outer roles.
   * Undefined when that account may not sign in.
   */
  provision(identity: ExternalIdentity): Promise<string | undefined>;
  /** The id of the user's own record of an entity (the user record, or their staff card), if any. */
  profileRecordId(userId: string, entity: string): Promise<number | undefined>;
  /** A user by username with their password hash (null without one), for password sign-in. */
  credentialsOf(username: string): Promise<{ id: number; data: UserData; hash: string | null } | undefined>;
  /** A user record's data, read directly (the password policy needs fields the caller may not see). */
  userData(userId: number): Promise<Record<string, unknown> | undefined>;
  /** The roles of these codes as code and name, by code. */
  roleNames(codes: readonly string[]): Promise<Array<{ code: string; name: string }>>;
}

/** What sessions are made of: the database, the store (new accounts), tokens and the actor loader. */
export interface AuthSessionParts {
  db: Database;
  store: EntityStore;
  registry: DefinitionRegistry;
  tables: Map<string, EntityTable>;
  access: AccessDefinition;
  tokens: TokenService;
  refresh: RefreshTokens;
  revokedFamilies: RevokedFamilies;
  actors: ActorLoader;
  /** The user directory: users and their passwords. */
  users: UserDirectory;
}

/** The sessions of this app over its user and role entities. */
export function createAuthSessions({
  db,
  store,
  registry,
  tables,
  access,
  tokens,
  refresh,
  revokedFamilies,
  actors,
  users,
}: AuthSessionParts): AuthSessions {
  const roleTable = tables.get(access.roleEntity)!;
  const roleCodeColumn = roleTable.columns.get('/code')!.column;
  const verifiedField = access.identityVerifiedField;
  const system = systemActor();

  /** The photo file id of a record of an entity whose manifest declares `photo.field`. */
  const photoOf = (entity: string | undefined, data: Record<string, unknown> | undefined): string | undefined => {
    const field = entity ? registry.entities.get(entity)?.manifest.photo?.field : undefined;
    const value = field && data ? valueAt(data, field) : undefined;
    return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
  };

  const sessionInfo: AuthSessions['sessionInfo'] = async (userId) => {
    const user = (await users.byId<UserData>(Number(userId)))!.data;
    const actor = (await actors.actorOf(userId))!;
    const card = await actors.staffCardOf(userId, user);
    const names: PersonNames = card
      ? {
          firstName: card.data.firstName ?? user.firstName,
          lastName: card.data.lastName ?? user.lastName,
          middleName: card.data.middleName ?? null,
        }
      : { firstName: user.firstName, lastName: user.lastName, middleName: user.middleName ?? null };
    const photo =
      photoOf(access.employeeEntity, card?.data) ??
      photoOf(access.userEntity, user as unknown as Record<string, unknown>);
    const reply = sessionReply({
      id: Number(userId),
      username: user.username,
      cardId: card?.id ?? user.employeeId ?? null,
      names,
      isOuter: user.isOuter,
      photo,
      permissions: actor.permissions,
      fieldRules: actor.fieldRules,
    });
    return { reply, names, roles: user.roles };
  };

  const payloadOf: AuthSessions['payloadOf'] = async (userId, issued) => {
    const { reply: info } = await sessionInfo(userId);
    return {
      // The access token names its refresh family: signing out ends it here and closes the live sockets it opened.
      token: await tokens.sign({ sub: userId, username: info.username, sid: issued.family }),
      refreshToken: issued.token,
      expiresIn: tokens.lifetimeSeconds,
      ...info,
    };
  };

  const provision: AuthSessions['provision'] = async (identity) => {
    // A personal id is looked up only through its unique, indexed column; else the tax id.
    const user =
      identity.pinfl && users.hasColumn('/pinfl')
        ? await users.findBy<UserData>('/pinfl', identity.pinfl)
        : identity.tin
          ? await users.findBy<UserData>('/tin', identity.tin)
          : undefined;
    if (user) return (await actors.mayLogin(String(user.id), user.data)) ? String(user.id) : undefined;
    const key = identity.pinfl ?? identity.tin;
    if (!key) return undefined;
    const [lastName, firstName, middleName] = (identity.fullName ?? '').split(/\s+/);
    const data: Record<string, unknown> = {
      username: `${identity.provider}-${key}`.toLowerCase(),
      firstName: identity.firstName || firstName || '—',
      lastName: identity.lastName || lastName || '—',
      ...(identity.middleName || middleName ? { middleName: identity.middleName || middleName } : {}),
      isOuter: true,
      canLogin: true,
      roles: access.outerRoles,
      ...(identity.pinfl ? { pinfl: identity.pinfl } : {}),
      ...(identity.tin ? { tin: identity.tin } : {}),
    };
    // Created from a proven identity. An account found by PINFL/TIN is not marked: whoever
    // registered it may have typed someone else's number (an administrator can check it).
    if (verifiedField) setAt(data, verifiedField, true);
    const created = await store.create(access.userEntity, data, system);
    return String(created.id);
  };

  return {
    tokens,
    refresh,
    revokedFamilies,
    actorOf: actors.actorOf,
    forget: actors.forget,
    mayLogin: actors.mayLogin,
    sessionInfo,
    payloadOf,
    payloadFor: async (userId, remember) => payloadOf(userId, await refresh.issue(userId, remember)),
    provision,
    async profileRecordId(userId, entity) {
      if (entity === access.userEntity) return Number(userId);
      if (entity !== access.employeeEntity) return undefined;
      const user = await users.byId<UserData>(Number(userId));
      return user ? (await actors.staffCardOf(userId, user.data))?.id : undefined;
    },
    async credentialsOf(username) {
      return users.withPasswordHash<UserData>(username);
    },
    async userData(userId) {
      return (await users.byId(userId))?.data;
    },
    async roleNames(codes) {
      const { rows } = await db.query<{ data: { code: string; name: string } }>(
        `SELECT data FROM ${roleTable.table} WHERE ${roleCodeColumn} = ANY($1::text[]) ORDER BY ${roleCodeColumn}`,
        [codes],
      );
      return rows.map((r) => ({ code: r.data.code, name: r.data.name }));
    },
  };
}
