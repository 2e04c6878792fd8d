import type { Queryable } from '../db/database.ts';

/** How often an instance reads the families other instances revoked (the cross-instance lag). */
export const REVOCATION_POLL_MS = 5_000;

/**
 * The refresh-token families revoked recently (sign-out, a reused refresh token, a password
 * reset), kept in memory so that the request hook can refuse their access tokens without a
 * database query per request. This instance's own revocations count at once; everyone's are
 * read from `refresh_token` on start and every `pollMs`, so a sign-out on another instance
 * takes effect here within that period. A family needs remembering only while an access token
 * issued before its revocation can still be valid: `windowSeconds` (the token lifetime plus a
 * margin for a refresh racing the revocation).
 */
export function createRevokedFamilies(
  db: Queryable,
  options: { windowSeconds: number; pollMs?: number; onError?(error: unknown): void },
) {
  /** Family → when it was revoked (ms since the epoch). */
  const revoked = new Map<string, number>();
  const windowMs = options.windowSeconds * 1000;
  const forgetOld = (now: number): void => {
    for (const [family, at] of revoked) if (at <= now - windowMs) revoked.delete(family);
  };
  /** Reads every family revoked within the window (a few rows: only sign-outs of the last minutes). */
  const load = async (): Promise<void> => {
    const { rows } = await db.query<{ family: string; at: string }>(
      `SELECT family::text AS family, max(revoked_at)::text AS at FROM refresh_token
       WHERE revoked_at > now() - make_interval(secs => $1) GROUP BY family`,
      [options.windowSeconds],
    );
    for (const r of rows) revoked.set(r.family, Math.max(revoked.get(r.family) ?? 0, new Date(r.at).getTime()));
    forgetOld(Date.now());
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    load,
    /** Starts reading others' revocations every `pollMs` (the first read is `load`'s, awaited by the caller). */
    start(): void {
      timer = setInterval(() => {
        load().catch((error: unknown) => options.onError?.(error));
      }, options.pollMs ?? REVOCATION_POLL_MS);
      timer.unref();
    },
    stop(): void {
      clearInterval(timer);
    },
    /** This instance revoked the family: its access tokens stop working here at once. */
    add(family: string): void {
      revoked.set(family, Date.now());
    },
    has: (family: string): boolean => revoked.has(family),
  };
}

export type RevokedFamilies = ReturnType<typeof createRevokedFamilies>;
