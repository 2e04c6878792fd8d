import type { Queryable } from '../db/database.ts';

/** Failures per username in a minute before the delay starts (issue #4: 5 a minute). */
export const USERNAME_FAILURES = 5;
/** Failures per address in a minute before it is slowed down. */
export const IP_FAILURES = 20;
const MAX_WAIT_SECONDS = 15 * 60;

/**
 * Sign-in throttling from the attempt log itself (so it holds across instances and
 * restarts): past the limit within a minute, each further failure doubles the wait.
 * Returns the seconds to wait, or 0.
 */
export async function throttleWait(db: Queryable, username: string, ip: string): Promise<number> {
  const { rows } = await db.query<{ by_user: number; by_ip: number; last_user: string | null; last_ip: string | null }>(
    `SELECT
       count(*) FILTER (WHERE lower(username) = lower($1))::int AS by_user,
       count(*) FILTER (WHERE ip = $2)::int AS by_ip,
       max(at) FILTER (WHERE lower(username) = lower($1))::text AS last_user,
       max(at) FILTER (WHERE ip = $2)::text AS last_ip
     FROM login_attempt
     WHERE outcome <> 'ok' AND at > now() - interval '15 minutes'
       AND (lower(username) = lower($1) OR ip = $2)`,
    [username, ip],
  );
  const r = rows[0]!;
  const recent = await db.query<{ by_user: number; by_ip: number }>(
    `SELECT count(*) FILTER (WHERE lower(username) = lower($1))::int AS by_user, count(*) FILTER (WHERE ip = $2)::int AS by_ip
     FROM login_attempt WHERE outcome <> 'ok' AND at > now() - interval '1 minute' AND (lower(username) = lower($1) OR ip = $2)`,
    [username, ip],
  );
  const inMinute = recent.rows[0]!;
  const wait = (count: number, limit: number, last: string | null): number => {
    if (count < limit || !last) return 0;
    const seconds = Math.min(MAX_WAIT_SECONDS, 2 ** Math.min(20, count - limit + 1) * 15);
    const remaining = seconds - (Date.now() - new Date(last).getTime()) / 1000;
    return Math.max(0, Math.ceil(remaining));
  };
  const userWait = inMinute.by_user >= USERNAME_FAILURES ? wait(r.by_user, USERNAME_FAILURES, r.last_user) : 0;
  const ipWait = inMinute.by_ip >= IP_FAILURES ? wait(r.by_ip, IP_FAILURES, r.last_ip) : 0;
  return Math.max(userWait, ipWait);
}

/** Every sign-in attempt, whatever its outcome, with UTC time and address. */
export async function logAttempt(db: Queryable, attempt: { username: string; ip: string; outcome: 'ok' | 'bad-credentials' | 'throttled' | 'disabled'; method: string }): Promise<void> {
  await db.query('INSERT INTO login_attempt (username, ip, outcome, method) VALUES ($1, $2, $3, $4)', [attempt.username.slice(0, 100), attempt.ip, attempt.outcome, attempt.method]);
}
