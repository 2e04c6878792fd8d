import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { Migration } from '../db/migrations.ts';

/**
 * Who is on the live socket now, across instances (docs/scaling-out.md: several instances share
 * one database): one `live_presence` row per open, signed-in STOMP session, written by the
 * instance holding the socket on CONNECT and removed on close. Every instance refreshes
 * `last_seen` of its own rows each {@link PRESENCE_BEAT_MS}; a row not refreshed for
 * {@link PRESENCE_EXPIRY_MS} belongs to an instance that stopped without closing its sockets
 * (a crash, a killed container) and counts no more — any instance's beat deletes it.
 */
export const PRESENCE_DDL = [
  `CREATE TABLE IF NOT EXISTS live_presence (
    session_id text PRIMARY KEY,
    user_id text NOT NULL,
    instance text NOT NULL,
    connected_at timestamptz NOT NULL,
    last_seen timestamptz NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS ix_live_presence_seen ON live_presence (last_seen)`,
  `CREATE INDEX IF NOT EXISTS ix_live_presence_instance ON live_presence (instance)`,
];

/** The presence table (db/migrations.ts). */
export const PRESENCE_TABLES: Migration = { name: 'presence', ddl: PRESENCE_DDL };

/** How often an instance says its sockets are still open. */
export const PRESENCE_BEAT_MS = 30_000;
/** A row older than three missed beats is a stopped instance's: nobody is online through it. */
export const PRESENCE_EXPIRY_MS = 3 * PRESENCE_BEAT_MS;

/** One user online now: since when (their earliest open socket). */
export interface OnlineUser {
  userId: string;
  since: Date;
}

/** This instance's side of presence (see {@link PRESENCE_DDL}). */
export interface Presence {
  /** This instance's id in `live_presence.instance`. */
  readonly instance: string;
  /** A socket's CONNECT succeeded for this user. */
  connected(sessionId: string, userId: string): Promise<void>;
  /** A socket closed (DISCONNECT, ERROR, network loss, the session ended by upkeep). */
  disconnected(sessionId: string): Promise<void>;
  /**
   * Refreshes this instance's rows (re-writing any a peer swept while this instance was
   * paused too long) and deletes every instance's expired rows.
   */
  beat(): Promise<void>;
  /** The users with a live, unexpired row on any instance, by user id. */
  online(): Promise<OnlineUser[]>;
  /** Removes this instance's rows (a clean shutdown). */
  leave(): Promise<void>;
}

/**
 * Presence over the shared database `db`; `clock` is the app's (tests move it).
 * @example const presence = createPresence(app.db, app.config.clock); await presence.connected(session.id, '7');
 */
export function createPresence(db: Queryable, clock: () => Date, instance: string = randomUUID()): Presence {
  /** The sockets this instance holds: what its beat keeps alive. */
  const mine = new Map<string, { userId: string; connectedAt: Date }>();
  // Writes of one session run in order, so a quick connect + close never leaves a row behind.
  let queue: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const upsert = (sessionId: string, userId: string, connectedAt: Date, now: Date) =>
    db.query(
      `INSERT INTO live_presence (session_id, user_id, instance, connected_at, last_seen) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (session_id) DO UPDATE SET last_seen = EXCLUDED.last_seen`,
      [sessionId, userId, instance, connectedAt.toISOString(), now.toISOString()],
    );
  return {
    instance,
    connected(sessionId, userId) {
      const connectedAt = clock();
      mine.set(sessionId, { userId, connectedAt });
      return inOrder(() => upsert(sessionId, userId, connectedAt, connectedAt)).then(() => undefined);
    },
    disconnected(sessionId) {
      if (!mine.delete(sessionId)) return Promise.resolve();
      return inOrder(() => db.query('DELETE FROM live_presence WHERE session_id = $1', [sessionId])).then(
        () => undefined,
      );
    },
    beat() {
      return inOrder(async () => {
        const now = clock();
        // One statement for all of this instance's sockets, however many.
        const sessions = [...mine];
        if (sessions.length)
          await db.query(
            `INSERT INTO live_presence (session_id, user_id, instance, connected_at, last_seen)
             SELECT s, u, $4, c, $5 FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS t(s, u, c)
             ON CONFLICT (session_id) DO UPDATE SET last_seen = EXCLUDED.last_seen`,
            [
              sessions.map(([id]) => id),
              sessions.map(([, s]) => s.userId),
              sessions.map(([, s]) => s.connectedAt.toISOString()),
              instance,
              now.toISOString(),
            ],
          );
        await db.query('DELETE FROM live_presence WHERE last_seen < $1', [
          new Date(now.getTime() - PRESENCE_EXPIRY_MS).toISOString(),
        ]);
      });
    },
    async online() {
      const cutoff = new Date(clock().getTime() - PRESENCE_EXPIRY_MS).toISOString();
      const { rows } = await db.query<{ user_id: string; since: Date | string }>(
        'SELECT user_id, min(connected_at) AS since FROM live_presence WHERE last_seen >= $1 GROUP BY user_id',
        [cutoff],
      );
      return rows.map((r) => ({ userId: r.user_id, since: new Date(r.since) }));
    },
    leave() {
      mine.clear();
      return inOrder(() => db.query('DELETE FROM live_presence WHERE instance = $1', [instance])).then(() => undefined);
    },
  };
}
