import { jwtVerify, SignJWT } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** Access tokens live 15 minutes; the client refreshes them. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
/** Refresh tokens: one day, or thirty with "remember me". */
export const REFRESH_TOKEN_SECONDS = 24 * 3600;
export const REMEMBER_REFRESH_SECONDS = 30 * 24 * 3600;

const ISSUER = 'portal';
const AUDIENCE = 'portal-api';
const ALGORITHMS = ['HS256'];
/** Tokens remembered as verified (bounded; cleared when full). */
const VERIFIED_CACHE_SIZE = 10_000;

export interface AccessClaims {
  /** User id. */
  sub: string;
  username: string;
  /** The refresh-token family the token was issued with (sign-out revokes it); absent on older tokens. */
  sid?: string | undefined;
}

/** A verified token's claims and when it stops being valid (ms since the epoch). */
export interface VerifiedClaims extends AccessClaims {
  expiresAt: number;
}

/**
 * Signs and checks access tokens with one secret shared by every instance: AUTH_SECRET
 * when set, otherwise one generated once and kept in the database, so restarts and
 * scaled-out instances accept each other's tokens.
 */
export async function createTokenService(
  db: Queryable,
  configured?: string,
  lifetimeSeconds: number = ACCESS_TOKEN_SECONDS,
) {
  let secret = configured;
  if (!secret) {
    await db.query(`INSERT INTO app_secret (name, value) VALUES ('jwt', $1) ON CONFLICT (name) DO NOTHING`, [
      randomBytes(48).toString('base64url'),
    ]);
    secret = (await db.query<{ value: string }>(`SELECT value FROM app_secret WHERE name = 'jwt'`)).rows[0]!.value;
  }
  const key = new TextEncoder().encode(secret);
  const verified = new Map<string, VerifiedClaims>();
  return {
    /** Seconds a token signed now is valid. */
    lifetimeSeconds,
    async sign(claims: AccessClaims): Promise<string> {
      return new SignJWT({ username: claims.username, ...(claims.sid ? { sid: claims.sid } : {}) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${lifetimeSeconds}s`)
        .sign(key);
    },
    /** The claims of a valid token, or undefined (bad signature, algorithm, audience or expired). */
    async verify(token: string): Promise<VerifiedClaims | undefined> {
      // A token checked once stays valid until it expires: the same bytes need no new HMAC.
      const known = verified.get(token);
      if (known && known.expiresAt > Date.now()) return known;
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ALGORITHMS });
        if (typeof payload.sub !== 'string') return undefined;
        const claims: VerifiedClaims = {
          sub: payload.sub,
          username: String(payload.username ?? ''),
          sid: typeof payload.sid === 'string' ? payload.sid : undefined,
          expiresAt: (payload.exp ?? 0) * 1000,
        };
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
        verified.set(token, claims);
        return claims;
      } catch {
        return undefined;
      }
    },
  };
}

export type TokenService = Awaited<ReturnType<typeof createTokenService>>;

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/**
 * Rotating refresh tokens, stored only as hashes. Each use issues the next token of the same
 * family; presenting a token that was already used revokes the whole family (it was stolen,
 * or the legitimate holder lost the race to a thief). `onRevoked` hears of every family this
 * instance revokes (the access tokens of that family stop working at once).
 */
export function createRefreshTokens(db: Queryable, onRevoked: (family: string) => void = () => undefined) {
  const revokeFamily = async (family: string): Promise<void> => {
    await db.query('UPDATE refresh_token SET revoked_at = coalesce(revoked_at, now()) WHERE family = $1::uuid', [
      family,
    ]);
    onRevoked(family);
  };
  const issue = async (
    userId: string,
    family: string | undefined,
    remember: boolean,
  ): Promise<{ token: string; family: string }> => {
    const token = randomBytes(32).toString('base64url');
    const seconds = remember ? REMEMBER_REFRESH_SECONDS : REFRESH_TOKEN_SECONDS;
    const { rows } = await db.query<{ family: string }>(
      `INSERT INTO refresh_token (token_hash, family, user_id, remember, expires_at)
       VALUES ($1, coalesce($2::uuid, gen_random_uuid()), $3, $4, now() + make_interval(secs => $5)) RETURNING family::text`,
      [sha256(token), family ?? null, userId, remember, seconds],
    );
    return { token, family: rows[0]!.family };
  };
  return {
    issue: (userId: string, remember: boolean) => issue(userId, undefined, remember),
    /** The next token, its user and family, or undefined (unknown, expired, revoked, or reused → family revoked). */
    async rotate(token: string): Promise<{ userId: string; token: string; family: string } | undefined> {
      const { rows } = await db.query<{
        family: string;
        user_id: string;
        remember: boolean;
        used: boolean;
        live: boolean;
      }>(
        `UPDATE refresh_token SET used_at = coalesce(used_at, now())
         WHERE token_hash = $1
         RETURNING family::text, user_id, remember, (used_at IS DISTINCT FROM now()) AS used,
                   (revoked_at IS NULL AND expires_at > now()) AS live`,
        [sha256(token)],
      );
      const row = rows[0];
      if (!row) return undefined;
      if (row.used || !row.live) {
        await revokeFamily(row.family);
        return undefined;
      }
      return { userId: row.user_id, ...(await issue(row.user_id, row.family, row.remember)) };
    },
    /** The families among `families` that are revoked (sign-out, reuse): their live sockets close. */
    async revokedOf(families: string[]): Promise<Set<string>> {
      if (!families.length) return new Set();
      const { rows } = await db.query<{ family: string }>(
        'SELECT DISTINCT family::text FROM refresh_token WHERE family = ANY($1::uuid[]) AND revoked_at IS NOT NULL',
        [families],
      );
      return new Set(rows.map((r) => r.family));
    },
    /** Logout: the token's whole family stops working (its user's other devices keep theirs). */
    async revoke(token: string): Promise<void> {
      const { rows } = await db.query<{ family: string }>(
        'SELECT family::text FROM refresh_token WHERE token_hash = $1',
        [sha256(token)],
      );
      if (rows[0]) await revokeFamily(rows[0].family);
    },
    /** Logout by the access token's family (`sid`), when the client sends no refresh token. */
    revokeFamily,
  };
}

/** Rotating refresh tokens (createRefreshTokens). */
export type RefreshTokens = ReturnType<typeof createRefreshTokens>;
