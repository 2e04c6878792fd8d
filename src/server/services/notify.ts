import fp from 'fastify-plugin';
import { createOutboxSender, OUTBOX_TABLES, type Channel, type Sender } from '../notify/outbox.ts';
import { createTransports } from '../notify/transports.ts';
import { createDeliveryWorker, type DeliveryWorker } from '../notify/delivery-worker.ts';
import { createInbox, INBOX_TABLES, type Inbox } from '../notify/inbox.ts';

/** The outbox the sender writes and the worker empties, and the in-app notifications. */
export const migrations = [OUTBOX_TABLES, INBOX_TABLES];

/** How often the worker looks for due messages (retries; new messages kick it at once). */
const DELIVERY_INTERVAL_MS = 5_000;

/**
 * Notifications: one `Sender` for every plugin (messages land in the `outbox` table) and the
 * delivery worker that sends them through the transports of the registry (notify/transports.ts):
 * e-mail over SMTP when SMTP_URL is set, SMS through the HTTP gateway when SMS_GATEWAY_URL is set, messages to other systems (channel `system`, e.g.
 * the decision requests of status machines) by HTTP POST when their URL is set
 * (STATE_SERVICE_URL). Without a transport, messages of its channel stay in the outbox as
 * `undeliverable`. In-app notifications are rows of their own (`notification`, notify/inbox.ts):
 * they are read in the portal, not delivered.
 */
export default fp(
  async (app) => {
    // The registry (notify/transports.ts) builds each transport the configuration sets up.
    const transports = createTransports(app.config);
    const channels: Channel[] = transports.filter((t) => !t.recipients).map((t) => t.channel);
    const systems = Object.keys(app.config.systemUrls ?? {});
    const worker = createDeliveryWorker(app.db, transports, (error) =>
      app.log.error({ err: error }, 'outbox delivery failed'),
    );
    const sender = createOutboxSender(
      app.db,
      app.translator,
      () => channels,
      () => worker.kick(),
      () => systems,
    );
    app.decorate('notify', { sender, worker, inbox: createInbox(app.db) });
    app.addHook('onReady', async () => {
      if (transports.length) {
        worker.start(DELIVERY_INTERVAL_MS);
        worker.kick();
      }
    });
    app.addHook('onClose', async () => {
      await worker.stop();
      for (const transport of transports) transport.close?.();
    });
  },
  { name: 'notify', dependencies: ['db', 'http'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    notify: {
      /** Queues messages (in the caller's transaction when given one). */
      sender: Sender;
      /** Sends due messages; `kick()` after a commit that queued some. */
      worker: DeliveryWorker;
      /** In-app notifications (notify/inbox.ts); services/notifications.ts pushes new ones live. */
      inbox: Inbox;
    };
  }
}
