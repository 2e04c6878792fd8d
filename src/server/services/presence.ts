import fp from 'fastify-plugin';
import { createPresence, PRESENCE_BEAT_MS, PRESENCE_TABLES, type Presence } from '../messenger/presence.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who is on the live socket, across instances (messenger/presence.ts). */
    presence: Presence;
  }
}

/** The live_presence table. */
export const migrations = [PRESENCE_TABLES];

/**
 * Presence of staff on the live socket: the STOMP service (services/stomp.ts) tells it of
 * every signed-in socket opened and closed; here every {@link PRESENCE_BEAT_MS} this instance
 * refreshes its rows and sweeps other instances' expired ones, and a clean shutdown removes
 * its rows at once. Served by routes/presence.ts.
 */
export default fp(
  async (app) => {
    const presence = createPresence(app.db, app.config.clock);
    app.decorate('presence', presence);
    const beat = setInterval(() => {
      presence.beat().catch((error: Error) => app.log.error(error));
    }, PRESENCE_BEAT_MS).unref();
    app.addHook('preClose', async () => {
      clearInterval(beat);
      await presence.leave().catch((error: Error) => app.log.error(error));
    });
  },
  { name: 'presence', dependencies: ['db'] },
);
