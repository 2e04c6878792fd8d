import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Database, Queryable } from '../db/database.ts';
import type { Migration } from '../db/migrations.ts';
import { ApiError } from '../errors.ts';

/** Code rules (issue #4): six digits, valid five minutes, five wrong tries, one new code a minute. */
export const CODE_TTL_SECONDS = 5 * 60;
export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_COOLDOWN_SECONDS = 60;
/** A registration or reset left unfinished this long is gone. */
export const SESSION_TTL_SECONDS = 60 * 60;
/** Per address within ten minutes: codes sent, and sessions started. */
export const IP_SENDS_PER_WINDOW = 10;
export const IP_SESSIONS_PER_WINDOW = 30;
const IP_WINDOW_SECONDS = 10 * 60;

export type Purpose = 'registration' | 'password-reset';

/** One server-side session of a registration or a password reset, identified by a random uid. */
export interface ConfirmationSession {
  uid: string;
  purpose: Purpose;
  status: 'started' | 'code-sent' | 'confirmed' | 'finished';
  data: Record<string, unknown>;
  channel: 'phone' | 'mail' | null;
  recipient: string | null;
  userId: string | null;
}

export const CONFIRMATION_DDL = [
  `CREATE TABLE IF NOT EXISTS confirmation_session (
    uid uuid PRIMARY KEY,
    purpose text NOT NULL,
    status text NOT NULL,
    data jsonb NOT NULL DEFAULT '{}',
    channel text,
    recipient text,
    user_id text,
    ip text NOT NULL,
    code_hash text,
    code_expires_at timestamptz,
    attempts integer NOT NULL DEFAULT 0,
    last_sent_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS ix_confirmation_session_ip ON confirmation_session (ip, created_at DESC)`,
  `CREATE TABLE IF NOT EXISTS confirmation_send (ip text NOT NULL, at timestamptz NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS ix_confirmation_send_ip ON confirmation_send (ip, at DESC)`,
];

/** The confirmation sessions and sends of registration and password reset (db/migrations.ts). */
export const CONFIRMATION_TABLES: Migration = { name: 'confirmation', ddl: CONFIRMATION_DDL };

// The uid salts the hash: the same code in two sessions has two different hashes.
const codeHash = (uid: string, code: string): string => createHash('sha256').update(`${uid}:${code}`).digest('hex');

interface Row {
  uid: string;
  purpose: Purpose;
  status: ConfirmationSession['status'];
  data: Record<string, unknown>;
  channel: ConfirmationSession['channel'];
  recipient: string | null;
  user_id: string | null;
  created_ms: number;
}

const toSession = (row: Row): ConfirmationSession => ({
  uid: row.uid,
  purpose: row.purpose,
  status: row.status,
  data: row.data,
  channel: row.channel,
  recipient: row.recipient,
  userId: row.user_id,
});

/** A problem with the code, reported on the form field at `pointer`. */
const codeProblem = (pointer: string, key: string, params: Record<string, unknown> = {}) =>
  new ApiError(400, 'errors.invalidInput', { fieldErrors: [{ pointer, key, params }] });

/**
 * Confirmation codes over the `confirmation_session` table: starting a session, issuing a
 * code (stored only as a hash) with the resend cooldown, and checking a code against its
 * expiry and attempt limit. Time comes from `clock`, so tests move it instead of sleeping.
 */
export function createConfirmations(db: Database, clock: () => Date) {
  const nowIso = () => clock().toISOString();
  const secondsAgo = (s: number) => new Date(clock().getTime() - s * 1000).toISOString();

  /** 429 when this address started or sent too much within the window. */
  const throttle = async (ip: string, what: 'sessions' | 'sends'): Promise<void> => {
    const sql =
      what === 'sessions'
        ? 'SELECT count(*)::int AS n FROM confirmation_session WHERE ip = $1 AND created_at > $2::timestamptz'
        : 'SELECT count(*)::int AS n FROM confirmation_send WHERE ip = $1 AND at > $2::timestamptz';
    const { rows } = await db.query<{ n: number }>(sql, [ip, secondsAgo(IP_WINDOW_SECONDS)]);
    if (rows[0]!.n >= (what === 'sessions' ? IP_SESSIONS_PER_WINDOW : IP_SENDS_PER_WINDOW)) {
      throw new ApiError(429, 'errors.tooManyAttempts', { params: { seconds: IP_WINDOW_SECONDS } });
    }
  };

  // Used up exactly once, even by two right answers at the same moment.
  const spend = async (tx: Queryable, uid: string, verified: string, pointer: string): Promise<void> => {
    const used = await tx.query(
      `UPDATE confirmation_session SET code_hash = NULL, updated_at = $3::timestamptz WHERE uid = $1::uuid AND code_hash = $2`,
      [uid, verified, nowIso()],
    );
    if (!used.rowCount) throw codeProblem(pointer, 'confirmation.errors.noCode');
  };

  return {
    throttle,

    async start(purpose: Purpose, ip: string, data: Record<string, unknown>, tx: Queryable = db): Promise<string> {
      const uid = randomUUID();
      await tx.query(
        `INSERT INTO confirmation_session (uid, purpose, status, data, ip, created_at, updated_at) VALUES ($1, $2, 'started', $3::jsonb, $4, $5::timestamptz, $5::timestamptz)`,
        [uid, purpose, JSON.stringify(data), ip, nowIso()],
      );
      return uid;
    },

    /** The live session (not finished, not past its lifetime), locked when `tx` is a transaction; else undefined. */
    async find(uid: unknown, purpose: Purpose, tx: Queryable = db): Promise<ConfirmationSession | undefined> {
      if (typeof uid !== 'string' || !/^[0-9a-f-]{36}$/i.test(uid)) return undefined;
      const { rows } = await tx.query<Row>(
        `SELECT uid::text, purpose, status, data, channel, recipient, user_id, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms
         FROM confirmation_session WHERE uid = $1::uuid AND purpose = $2 ${tx === db ? '' : 'FOR UPDATE'}`,
        [uid, purpose],
      );
      const row = rows[0];
      if (!row || row.status === 'finished' || clock().getTime() - row.created_ms > SESSION_TTL_SECONDS * 1000)
        return undefined;
      return toSession(row);
    },

    async update(
      tx: Queryable,
      uid: string,
      change: { status?: ConfirmationSession['status']; data?: Record<string, unknown>; userId?: string | null },
    ): Promise<void> {
      await tx.query(
        `UPDATE confirmation_session SET status = coalesce($2, status), data = coalesce($3::jsonb, data), user_id = CASE WHEN $4::boolean THEN $5 ELSE user_id END, updated_at = $6::timestamptz WHERE uid = $1::uuid`,
        [
          uid,
          change.status ?? null,
          change.data ? JSON.stringify(change.data) : null,
          change.userId !== undefined,
          change.userId ?? null,
          nowIso(),
        ],
      );
    },

    /**
     * A new code for the session, sent to `recipient` over `channel` by the caller (in the same
     * transaction). 429 with the seconds to wait while the previous code is under a minute old.
     */
    async issueCode(
      tx: Queryable,
      uid: string,
      ip: string,
      channel: 'phone' | 'mail',
      recipient: string,
    ): Promise<string> {
      const { rows } = await tx.query<{ sent_ms: number | null }>(
        `SELECT (extract(epoch FROM last_sent_at) * 1000)::float8 AS sent_ms FROM confirmation_session WHERE uid = $1::uuid FOR UPDATE`,
        [uid],
      );
      const sent = rows[0]?.sent_ms;
      if (sent != null) {
        const wait = Math.ceil(RESEND_COOLDOWN_SECONDS - (clock().getTime() - sent) / 1000);
        if (wait > 0) throw new ApiError(429, 'confirmation.errors.resendWait', { params: { seconds: wait } });
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await tx.query(
        `UPDATE confirmation_session SET status = 'code-sent', channel = $2, recipient = $3, code_hash = $4, attempts = 0,
           code_expires_at = $5::timestamptz, last_sent_at = $6::timestamptz, updated_at = $6::timestamptz WHERE uid = $1::uuid`,
        [
          uid,
          channel,
          recipient,
          codeHash(uid, code),
          new Date(clock().getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
          nowIso(),
        ],
      );
      await tx.query('INSERT INTO confirmation_send (ip, at) VALUES ($1, $2::timestamptz)', [ip, nowIso()]);
      return code;
    },

    /**
     * Checks a code: every try counts (committed at once, whatever the caller does next); a
     * code past its five minutes or its fifth wrong try is dead and a new one must be sent.
     * On success the code is used up — unless `keep`: then it stays good for another try (a
     * check after it may still refuse the request) and the caller spends it with `spendCode`,
     * passing the answer, in the transaction that acts on it. Throws a 400 on the field at
     * `pointer` otherwise.
     */
    async verifyCode(uid: string, code: unknown, pointer: string, options: { keep?: boolean } = {}): Promise<string> {
      const { rows } = await db.query<{ attempts: number; code_hash: string; expires_ms: number }>(
        `UPDATE confirmation_session SET attempts = attempts + 1 WHERE uid = $1::uuid AND code_hash IS NOT NULL
         RETURNING attempts, code_hash, (extract(epoch FROM code_expires_at) * 1000)::float8 AS expires_ms`,
        [uid],
      );
      const row = rows[0];
      if (!row) throw codeProblem(pointer, 'confirmation.errors.noCode');
      if (row.attempts > CODE_MAX_ATTEMPTS) throw codeProblem(pointer, 'confirmation.errors.tooManyAttempts');
      if (clock().getTime() > row.expires_ms) throw codeProblem(pointer, 'confirmation.errors.expired');
      if (typeof code !== 'string' || codeHash(uid, code.trim()) !== row.code_hash) {
        const left = CODE_MAX_ATTEMPTS - row.attempts;
        throw codeProblem(pointer, left > 0 ? 'confirmation.errors.wrongCode' : 'confirmation.errors.tooManyAttempts', {
          left,
        });
      }
      if (!options.keep) await spend(db, uid, row.code_hash, pointer);
      return row.code_hash;
    },

    /** Uses up a code `verifyCode` kept (its answer): once only, else a 400 on `pointer`. */
    spendCode: (tx: Queryable, uid: string, verified: string, pointer: string): Promise<void> =>
      spend(tx, uid, verified, pointer),
  };
}

export type Confirmations = ReturnType<typeof createConfirmations>;

/** Spec §5: before a code is sent, the plus and the dashes go. */
export const normalizePhone = (phone: string): string => phone.replace(/[+-]/g, '');

/** Sets `retry-after` on a 429 (a throttled send or session) before it is answered; rethrows. */
export const withRetryAfter = (reply: FastifyReply, error: unknown): never => {
  if (error instanceof ApiError && error.statusCode === 429 && typeof error.params.seconds === 'number')
    reply.header('retry-after', String(error.params.seconds));
  throw error;
};
