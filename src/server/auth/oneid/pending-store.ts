import type { Queryable } from '../../db/database.ts';
import type { Migration } from '../../db/migrations.ts';

/** What the portal remembers between sending the browser to OneID and its return. */
export interface PendingLogin {
  /** PKCE code verifier whose S256 challenge went into the authorization URL. */
  codeVerifier: string;
  /** Expected `nonce` claim of the ID token. */
  nonce: string;
  /** Portal path to return to after sign-in (already checked to be a local path). */
  redirect?: string | undefined;
  /** "Remember me" was ticked: the session's refresh token lives 30 days instead of one. */
  remember?: boolean | undefined;
  /** Epoch milliseconds after which the entry is no longer accepted. */
  expiresAt: number;
}

/**
 * Where pending OneID logins live, keyed by the OAuth `state`. `take` is one-time: it
 * removes the entry and returns it, or returns undefined when it is absent or expired
 * (an expired entry is removed as well).
 */
export interface PendingLoginStore {
  put(state: string, login: PendingLogin): Promise<void>;
  take(state: string): Promise<PendingLogin | undefined>;
}

/**
 * Table of pending OneID logins, one statement per string (run each in order; all are
 * idempotent). Works on PostgreSQL and PGlite.
 */
export const ONEID_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS oneid_pending (
    state text PRIMARY KEY,
    code_verifier text NOT NULL,
    nonce text NOT NULL,
    redirect text,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS ix_oneid_pending_expires ON oneid_pending (expires_at)`,
  // Added after the table first shipped: installations that have it gain the column.
  `ALTER TABLE oneid_pending ADD COLUMN IF NOT EXISTS remember boolean NOT NULL DEFAULT false`,
];

/** The pending OneID sign-ins (db/migrations.ts). */
export const ONEID_TABLES: Migration = { name: 'oneid', ddl: ONEID_DDL };

/** Options shared by the stores; `now` exists for tests. */
export interface PendingStoreOptions {
  /** Clock in epoch milliseconds; defaults to `Date.now`. */
  now?: () => number;
}

/**
 * A pending-login store in process memory: fine for one instance and for tests; use the
 * SQL store when several instances serve the callback.
 */
export function createMemoryPendingLoginStore(options: PendingStoreOptions = {}): PendingLoginStore {
  const now = options.now ?? Date.now;
  const entries = new Map<string, PendingLogin>();
  const purge = (at: number): void => {
    for (const [state, login] of entries) if (login.expiresAt <= at) entries.delete(state);
  };
  return {
    async put(state, login) {
      purge(now());
      entries.set(state, { ...login });
    },
    async take(state) {
      const login = entries.get(state);
      if (!login) return undefined;
      entries.delete(state);
      return login.expiresAt > now() ? login : undefined;
    },
  };
}

interface PendingRow {
  code_verifier: string;
  nonce: string;
  redirect: string | null;
  remember: boolean;
  expires_ms: number | string;
  live: boolean;
}

/**
 * A pending-login store in the `oneid_pending` table (see {@link ONEID_DDL}), shared by
 * every instance of the portal. `take` deletes the row in the same statement that reads
 * it, so two concurrent callbacks with one state cannot both succeed. Expiry is decided
 * by the application clock (`now`), not the database's; expired rows are purged on `put`.
 */
export function createSqlPendingLoginStore(db: Queryable, options: PendingStoreOptions = {}): PendingLoginStore {
  const now = options.now ?? Date.now;
  const iso = (ms: number): string => new Date(ms).toISOString();
  return {
    async put(state, login) {
      await db.query('DELETE FROM oneid_pending WHERE expires_at <= $1::timestamptz', [iso(now())]);
      await db.query(
        `INSERT INTO oneid_pending (state, code_verifier, nonce, redirect, remember, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6::timestamptz)`,
        [state, login.codeVerifier, login.nonce, login.redirect ?? null, login.remember === true, iso(login.expiresAt)],
      );
    },
    async take(state) {
      const { rows } = await db.query<PendingRow>(
        `DELETE FROM oneid_pending WHERE state = $1
         RETURNING code_verifier, nonce, redirect, remember,
           (extract(epoch FROM expires_at) * 1000)::float8 AS expires_ms,
           expires_at > $2::timestamptz AS live`,
        [state, iso(now())],
      );
      const row = rows[0];
      if (!row || !row.live) return undefined;
      return {
        codeVerifier: row.code_verifier,
        nonce: row.nonce,
        redirect: row.redirect ?? undefined,
        remember: row.remember,
        expiresAt: Number(row.expires_ms),
      };
    },
  };
}
