import type { Database } from '../db/database.ts';
import type { Channel } from './outbox.ts';
import type { Transport } from './transports.ts';

/** Tries per message before it is marked `failed`. */
export const MAX_DELIVERY_ATTEMPTS = 6;
/** First retry after this long; each next one waits twice as long. */
const FIRST_RETRY_SECONDS = 30;
/** Rows taken per round. */
const BATCH = 20;
/** How long a claimed row is left alone by other instances while it is being delivered. */
const LEASE_SECONDS = 120;

export interface DeliveryWorker {
  /** Sends what is due now; resolves with how many rows were handled. */
  runOnce(): Promise<number>;
  /** Asks for a round soon (after a commit that queued messages). */
  kick(): void;
  /** Starts the periodic rounds. */
  start(intervalMs: number): void;
  stop(): Promise<void>;
}

/**
 * Sends due outbox rows through the transport of their channel, with retries and growing
 * waits (30 s, 1 min, 2 min …), recording attempts, the last error and when it was sent.
 * Rows are claimed with `FOR UPDATE SKIP LOCKED` and a lease, so several instances share the
 * work without sending one message twice.
 */
export function createDeliveryWorker(
  db: Database,
  transports: readonly Transport[],
  log: (error: unknown) => void,
): DeliveryWorker {
  const byChannel = new Map<Channel, Transport>(transports.map((t) => [t.channel, t]));
  // Channels served for every recipient, and `channel:recipient` pairs served one by one (systems).
  const channels = transports.filter((t) => !t.recipients).map((t) => t.channel);
  const pairs = transports.flatMap((t) => (t.recipients ?? []).map((r) => `${t.channel}:${r}`));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  const round = async (): Promise<number> => {
    if (!channels.length && !pairs.length) return 0;
    // A lease, not a held transaction: delivery may take seconds, and the database must not
    // wait for an SMTP server. A row whose instance died mid-delivery is due again after it.
    const { rows } = await db.query<{
      id: number;
      channel: Channel;
      recipient: string;
      subject: string;
      body: string;
      attempts: number;
    }>(
      `UPDATE outbox SET next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
       WHERE id IN (
         SELECT id FROM outbox
         WHERE status IN ('pending', 'undeliverable') AND (channel = ANY($1::text[]) OR channel || ':' || recipient = ANY($2::text[])) AND next_attempt_at <= now()
         ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
       RETURNING id, channel, recipient, subject, body, attempts`,
      [channels, pairs],
    );
    for (const row of rows) {
      try {
        await byChannel.get(row.channel)!.deliver({ to: row.recipient, subject: row.subject, text: row.body });
        await db.query(
          `UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = now(), last_error = NULL WHERE id = $1`,
          [row.id],
        );
      } catch (error) {
        const attempts = row.attempts + 1;
        await db.query(
          `UPDATE outbox SET attempts = $2, last_error = $3, status = $4, next_attempt_at = now() + make_interval(secs => $5) WHERE id = $1`,
          [
            row.id,
            attempts,
            String((error as Error)?.message ?? error).slice(0, 500),
            attempts >= MAX_DELIVERY_ATTEMPTS ? 'failed' : 'pending',
            FIRST_RETRY_SECONDS * 2 ** (attempts - 1),
          ],
        );
      }
    }
    return rows.length;
  };

  /** The round that follows the running one, shared by everyone who asked meanwhile. */
  let next: Promise<number> | undefined;
  let stopped = false;
  const runOnce = (): Promise<number> => {
    // A round under way may have looked before the caller's rows were due: the caller waits for
    // one more round after it (one, however many ask meanwhile), which sees them.
    if (running) {
      next ??= running.then(() => {
        next = undefined;
        return stopped ? 0 : runOnce();
      });
      return next;
    }
    running = round()
      .catch((error: unknown) => {
        log(error);
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  return {
    runOnce,
    kick: () => void runOnce(),
    start(intervalMs) {
      stopped = false;
      timer ??= setInterval(() => void runOnce(), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      stopped = true;
      await running;
      await next;
    },
  };
}
