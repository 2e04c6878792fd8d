import type { Queryable } from '../../db/database.ts';
import type { Migration } from '../../db/migrations.ts';

/**
 * Table for one-time digital-signature login challenges. Plain PostgreSQL; runs unchanged on
 * PGlite. Run these statements (in order) from the migrations.
 */
export const SIGNATURE_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS login_challenge (
    challenge text PRIMARY KEY,
    tin text,
    pinfl text,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`,
  'CREATE INDEX IF NOT EXISTS login_challenge_expires_at_idx ON login_challenge (expires_at)',
];

/** The challenges of signature sign-in (db/migrations.ts). */
export const SIGNATURE_TABLES: Migration = { name: 'signature', ddl: SIGNATURE_DDL };

/** How long an issued challenge may be signed and presented (5 minutes). */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** A challenge as handed to the client: sign `challenge` (its UTF-8 bytes) before `expiresAt`. */
export interface IssuedChallenge {
  /** 32 random bytes, base64url without padding (43 characters). */
  challenge: string;
  /** ISO 8601 UTC instant after which the challenge is refused. */
  expiresAt: string;
}

/** A consumed challenge row. `tin`/`pinfl` are what the client announced when it asked for it. */
export interface ChallengeRecord {
  challenge: string;
  tin: string | null;
  pinfl: string | null;
  expiresAt: string;
  usedAt: string;
}

/** Issues and consumes one-time login challenges. */
export interface ChallengeStore {
  /**
   * Issues a fresh challenge, optionally bound to the TIN/PINFL the client says it will sign
   * in with (`GET /api/key-for-login-sign?TIN=…|PNFL=…`).
   */
  issue(subject?: { tin?: string | null | undefined; pinfl?: string | null | undefined }): Promise<IssuedChallenge>;
  /**
   * Marks the challenge used and returns its row — only if it exists, was never used and has
   * not expired at `now`. A single conditional UPDATE, so two concurrent consumers can never
   * both succeed. Returns `undefined` otherwise (unknown, reused, expired or malformed).
   */
  consume(challenge: string, now?: Date): Promise<ChallengeRecord | undefined>;
  /** Deletes challenges that expired before `now` (housekeeping); returns how many. */
  purgeExpired(now?: Date): Promise<number>;
}

export interface ChallengeStoreOptions {
  /** Lifetime of a challenge in milliseconds; defaults to {@link CHALLENGE_TTL_MS}. */
  ttlMs?: number;
  /** Clock used by `issue` (and by `consume`/`purgeExpired` when no `now` is passed). */
  now?: () => Date;
}

const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

interface ChallengeRow {
  challenge: string;
  tin: string | null;
  pinfl: string | null;
  expires_at: Date | string;
  used_at: Date | string;
}

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();
const blankToNull = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/**
 * Creates the challenge store over `db` (PostgreSQL or PGlite). The `login_challenge` table
 * must exist — see {@link SIGNATURE_DDL}.
 */
export function createChallengeStore(db: Queryable, options: ChallengeStoreOptions = {}): ChallengeStore {
  const ttlMs = options.ttlMs ?? CHALLENGE_TTL_MS;
  const clock = options.now ?? (() => new Date());

  return {
    async issue(subject = {}) {
      const challenge = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
      const expiresAt = new Date(clock().getTime() + ttlMs).toISOString();
      await db.query('INSERT INTO login_challenge (challenge, tin, pinfl, expires_at) VALUES ($1, $2, $3, $4)', [
        challenge,
        blankToNull(subject.tin),
        blankToNull(subject.pinfl),
        expiresAt,
      ]);
      return { challenge, expiresAt };
    },

    async consume(challenge, now = clock()) {
      if (typeof challenge !== 'string' || !CHALLENGE_PATTERN.test(challenge)) return undefined;
      const at = now.toISOString();
      const { rows } = await db.query<ChallengeRow>(
        `UPDATE login_challenge SET used_at = $2
          WHERE challenge = $1 AND used_at IS NULL AND expires_at > $2
          RETURNING challenge, tin, pinfl, expires_at, used_at`,
        [challenge, at],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        challenge: row.challenge,
        tin: row.tin,
        pinfl: row.pinfl,
        expiresAt: iso(row.expires_at),
        usedAt: iso(row.used_at),
      };
    },

    async purgeExpired(now = clock()) {
      const { rowCount } = await db.query('DELETE FROM login_challenge WHERE expires_at <= $1', [now.toISOString()]);
      return rowCount;
    },
  };
}
