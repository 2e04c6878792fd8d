import fp from 'fastify-plugin';

/** The live channel of in-app notifications (messenger/session.ts lists it among the user channels). */
export const NOTIFICATION_CHANNEL = 'notification';

declare module 'fastify' {
  interface FastifyInstance {
    notifications: {
      /** Tells the users' open sockets their new unread count (`action`: NEW after new rows, READ after reads). */
      tell(userIds: readonly string[], action: 'NEW' | 'READ'): Promise<void>;
    };
  }
}

/**
 * In-app notifications live: once a write committed new rows (a transition's notices, a
 * colleague's note), each recipient gets `{action: "NEW", unread}` on `notification`, through
 * the messenger's broker — stored first and replayed on reconnect like every event, and
 * carried to other instances by the STOMP relay. Reads push `{action: "READ", unread}` to the
 * reader's other tabs without a row (state, not history). The header counters keep their
 * own channel (`notificationMsg`).
 */
export default fp(
  async (app) => {
    const inbox = app.notify.inbox;
    const tell = async (userIds: readonly string[], action: 'NEW' | 'READ') => {
      for (const userId of new Set(userIds)) {
        const body = { action, unread: await inbox.unreadCount(userId) };
        if (action === 'NEW') await app.messenger.emit([userId], NOTIFICATION_CHANNEL, body);
        else app.messenger.push(userId, NOTIFICATION_CHANNEL, body);
      }
    };
    const stop = inbox.onPublished((userIds) => {
      // After the commit: a failed push is logged, the rows stay and the bell's poll finds them.
      tell(userIds, 'NEW').catch((error: unknown) => app.log.error({ err: error }, 'notification push failed'));
    });
    app.decorate('notifications', { tell });
    app.addHook('onClose', async () => void stop());
  },
  { name: 'notifications', dependencies: ['notify', 'messenger'] },
);
