import fp from 'fastify-plugin';
import { ApiError } from '../errors.ts';
import type { Migration } from '../db/migrations.ts';
import type { AppConfig } from '../config.ts';

/** Requests per address and minute on routes marked `config: { publicRateLimit: true }` (PUBLIC_RATE_LIMIT). */
export const DEFAULT_PUBLIC_RATE_LIMIT = 120;
const WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts one request under `key` in its one-minute window (opened by the key's first request)
     * and gives the window: other limits (the integration platform's per user and method) share
     * the counters — in the process, or in the database with RATE_LIMIT_SHARED=1.
     */
    countRequest(key: string): Promise<{ start: number; n: number }>;
  }
  interface FastifyContextConfig {
    /**
     * Count this route's requests per client address (public endpoints anyone may call):
     * `true` → the shared budget of PUBLIC_RATE_LIMIT a minute; `{bucket, perMinute}` → a
     * budget of its own, so that one kind of call does not use up another's.
     */
    publicRateLimit?: boolean | { bucket: string; perMinute: number };
  }
}

/** The shared counters (RATE_LIMIT_SHARED=1): one row per key (bucket and address) with its open window. */
const RATE_LIMIT_TABLES: Migration = {
  name: 'rate-limit',
  ddl: [
    `CREATE TABLE IF NOT EXISTS rate_limit_count (
    key text PRIMARY KEY,
    window_start bigint NOT NULL,
    n integer NOT NULL
  )`,
  ],
};
/** The counters' table only where they are shared: a single process counts in memory. */
export const migrations = (config: AppConfig): Migration[] => (config.rateLimitShared ? [RATE_LIMIT_TABLES] : []);

/**
 * A per-address budget for the public endpoints (aggregates, visit counting, open-data
 * downloads, drafts): past `publicRateLimit` requests in a one-minute window (opened by the
 * address's first request) the address gets 429 until the window ends. By default the
 * counters live in this process — behind a load balancer each instance keeps its own; with
 * RATE_LIMIT_SHARED=1 they are rows in the database, one upsert per counted request, so the
 * instances share one budget. Signed-in staff are not counted.
 */
export default fp(
  async (app) => {
    const limit = app.config.publicRateLimit ?? DEFAULT_PUBLIC_RATE_LIMIT;
    // Each key's window opens at its first request and lasts a minute.
    const counts = new Map<string, { start: number; n: number }>();
    const countHere = (key: string, now: number): { start: number; n: number } => {
      const entry = counts.get(key);
      if (!entry || now - entry.start >= WINDOW_MS) {
        const opened = { start: now, n: 1 };
        counts.set(key, opened);
        return opened;
      }
      entry.n += 1;
      return entry;
    };
    const countShared = async (key: string, now: number): Promise<{ start: number; n: number }> => {
      const { rows } = await app.db.query<{ start: string; n: number }>(
        `INSERT INTO rate_limit_count AS r (key, window_start, n) VALUES ($1, $2, 1)
         ON CONFLICT (key) DO UPDATE SET
           n = CASE WHEN r.window_start <= $2 - $3 THEN 1 ELSE r.n + 1 END,
           window_start = CASE WHEN r.window_start <= $2 - $3 THEN $2 ELSE r.window_start END
         RETURNING window_start AS start, n`,
        [key, now, WINDOW_MS],
      );
      return { start: Number(rows[0]!.start), n: rows[0]!.n };
    };
    app.decorate('countRequest', async (key: string) =>
      app.config.rateLimitShared ? countShared(key, Date.now()) : countHere(key, Date.now()),
    );
    // Closed windows are forgotten once a minute (in the process, or in the table when shared).
    const sweep = setInterval(() => {
      const before = Date.now() - WINDOW_MS;
      if (!app.config.rateLimitShared) {
        for (const [key, entry] of counts) if (entry.start <= before) counts.delete(key);
        return;
      }
      app.db
        .query('DELETE FROM rate_limit_count WHERE window_start <= $1', [before])
        .catch((error: Error) => app.log.error(error));
    }, WINDOW_MS).unref();
    app.addHook('onClose', async () => clearInterval(sweep));

    app.addHook('onRequest', async (request, reply) => {
      const rule = request.routeOptions.config?.publicRateLimit;
      if (!rule) return;
      // Staff share their offices' few addresses; they are known by their token (checked by now).
      if (request.actor?.id && !request.actor.isOuter) return;
      const now = Date.now();
      const key = rule === true ? request.ip : `${rule.bucket} ${request.ip}`;
      const window = app.config.rateLimitShared ? await countShared(key, now) : countHere(key, now);
      if (window.n > (rule === true ? limit : rule.perMinute)) {
        const seconds = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
        void reply.header('retry-after', String(seconds));
        throw new ApiError(429, 'errors.tooManyRequests', { params: { seconds } });
      }
    });
  },
  { name: 'rate-limit', dependencies: ['http', 'auth'] },
);
