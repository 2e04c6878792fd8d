import fp from 'fastify-plugin';
import { ApiError } from '../errors.ts';

/** Requests per address and minute on routes marked `config: { publicRateLimit: true }` (PUBLIC_RATE_LIMIT). */
export const DEFAULT_PUBLIC_RATE_LIMIT = 120;
const WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Count this route's requests per client address (public endpoints anyone may call):
     * `true` → the shared budget of PUBLIC_RATE_LIMIT a minute; `{bucket, perMinute}` → a
     * budget of its own, so that one kind of call does not use up another's.
     */
    publicRateLimit?: boolean | { bucket: string; perMinute: number };
  }
}

/**
 * A per-address budget for the public endpoints (aggregates, visit counting, open-data
 * downloads): past `publicRateLimit` requests in a fixed one-minute window the address gets
 * 429 until the window ends. The counters live in this process — behind a load balancer each
 * instance keeps its own, so the effective limit is per instance (a shared limiter, e.g. in
 * PostgreSQL or the balancer, is the scale-out answer). Signed-in staff are not counted.
 */
export default fp(
  async (app) => {
    const limit = app.config.publicRateLimit ?? DEFAULT_PUBLIC_RATE_LIMIT;
    let windowStart = Date.now();
    let counts = new Map<string, number>();
    app.addHook('onRequest', async (request, reply) => {
      const rule = request.routeOptions.config?.publicRateLimit;
      if (!rule) return;
      // Staff share their offices' few addresses; they are known by their token (checked by now).
      if (request.actor?.id && !request.actor.isOuter) return;
      const now = Date.now();
      if (now - windowStart >= WINDOW_MS) {
        // One map per window: dropping it is how old addresses are forgotten.
        windowStart = now;
        counts = new Map();
      }
      const key = rule === true ? request.ip : `${rule.bucket} ${request.ip}`;
      const used = (counts.get(key) ?? 0) + 1;
      counts.set(key, used);
      if (used > (rule === true ? limit : rule.perMinute)) {
        const seconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
        void reply.header('retry-after', String(seconds));
        throw new ApiError(429, 'errors.tooManyRequests', { params: { seconds } });
      }
    });
  },
  { name: 'rate-limit', dependencies: ['http', 'auth'] },
);
