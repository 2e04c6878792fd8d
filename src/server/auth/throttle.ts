import type { Queryable } from '../db/database.ts';

/** Failures per username in one burst before the first wait (issue #4: 5 a minute). */
export const USERNAME_FAILURES = 5;
/** Failures per address in one burst before it is slowed down. */
export const IP_FAILURES = 20;
/** The wait after the first burst; each further burst doubles it. */
export const FIRST_WAIT_SECONDS = 60;
/** The longest wait, however many bursts failed. */
export const MAX_WAIT_SECONDS = 15 * 60;
/** Failures older than this are forgotten: a day without failures starts afresh. */
export const FORGET_AFTER_SECONDS = 24 * 3600;

/** Outcomes that count as a failed try (a refused `throttled` attempt tried nothing). */
const FAILED = `('bad-credentials', 'disabled')`;

/**
 * The seconds still to wait after `failures` (with the time of the failure that completed the
 * last full burst): nothing before the first full burst of `burst`; then FIRST_WAIT_SECONDS,
 * doubled for each further full burst, at most MAX_WAIT_SECONDS.
 * @example waitAfter(10, 5, completedAt, now) // 120 − seconds since the 10th failure
 */
export function waitAfter(failures: number, burst: number, burstCompletedAt: Date | undefined, now: Date): number {
  const bursts = Math.floor(failures / burst);
  if (bursts < 1 || !burstCompletedAt) return 0;
  const seconds = Math.min(MAX_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** Math.min(20, bursts - 1));
  return Math.max(0, Math.ceil(seconds - (now.getTime() - burstCompletedAt.getTime()) / 1000));
}

/**
 * The failures that still count for one key (a username, or an address), and when the last
 * full burst of them was completed. A failure is forgiven once the same username signs in
 * successfully afterwards (the person got it right — for an address that forgives only that
 * user's typos: an account of one's own cannot wash out tries at other usernames), and
 * forgotten after FORGET_AFTER_SECONDS.
 */
async function countFailures(
  db: Queryable,
  key: 'username' | 'ip',
  value: string,
  burst: number,
  now: Date,
): Promise<{ failures: number; completedAt: Date | undefined }> {
  const where = key === 'username' ? 'lower(a.username) = lower($1)' : 'a.ip = $1';
  const { rows } = await db.query<{ failures: number; at: string | null }>(
    `WITH counted AS (
       SELECT a.at, row_number() OVER (ORDER BY a.id) AS i, count(*) OVER () AS n
       FROM login_attempt a
       WHERE ${where} AND a.outcome IN ${FAILED} AND a.at > $2::timestamptz - make_interval(secs => $3)
         AND NOT EXISTS (SELECT 1 FROM login_attempt s WHERE s.outcome = 'ok' AND lower(s.username) = lower(a.username) AND s.id > a.id)
     )
     SELECT max(n)::int AS failures, max(at) FILTER (WHERE i = (n / $4) * $4)::text AS at FROM counted`,
    [value, now.toISOString(), FORGET_AFTER_SECONDS, burst],
  );
  const r = rows[0];
  return { failures: r?.failures ?? 0, completedAt: r?.at ? new Date(r.at) : undefined };
}

/**
 * Sign-in throttling from the attempt log itself (so it holds across instances and
 * restarts), per username and per address: after each full burst of failures (5 for a
 * username, 20 for an address) the next try waits, a minute after the first burst and twice
 * as long after each further one, up to 15 minutes. Waiting does not reset the count: only
 * a successful sign-in of that username does, or a day without failures. `now` is the app's
 * clock (tests move it). Returns the seconds to wait, or 0.
 */
export async function throttleWait(
  db: Queryable,
  username: string,
  ip: string,
  now: Date = new Date(),
): Promise<number> {
  const [byUser, byIp] = await Promise.all([
    countFailures(db, 'username', username, USERNAME_FAILURES, now),
    countFailures(db, 'ip', ip, IP_FAILURES, now),
  ]);
  return Math.max(
    waitAfter(byUser.failures, USERNAME_FAILURES, byUser.completedAt, now),
    waitAfter(byIp.failures, IP_FAILURES, byIp.completedAt, now),
  );
}

/** Every sign-in attempt, whatever its outcome, with UTC time (the app's clock) and address. */
export async function logAttempt(
  db: Queryable,
  attempt: {
    username: string;
    ip: string;
    outcome: 'ok' | 'bad-credentials' | 'throttled' | 'disabled';
    method: string;
  },
  now: Date = new Date(),
): Promise<void> {
  await db.query('INSERT INTO login_attempt (at, username, ip, outcome, method) VALUES ($1, $2, $3, $4, $5)', [
    now.toISOString(),
    attempt.username.slice(0, 100),
    attempt.ip,
    attempt.outcome,
    attempt.method,
  ]);
}
