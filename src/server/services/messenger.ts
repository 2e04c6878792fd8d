import fp from 'fastify-plugin';
import { createEmbeddedBroker, type Broker } from '../messenger/broker.ts';
import { createRelayBroker } from '../messenger/relay.ts';
import { createMessengerStore, type MessengerStore } from '../messenger/store.ts';
import { MESSENGER_TABLES } from '../messenger/tables.ts';
import { createCounters } from '../messenger/counters.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The messenger's store, the live broker every event goes through, and the header counters. */
    messenger: MessengerStore & { broker: Broker; counters: ReturnType<typeof createCounters> };
  }
}

/** Chats, messages, receipts and live events. */
export const migrations = [MESSENGER_TABLES];

/**
 * The live broker — embedded, or RabbitMQ's STOMP plugin with STOMP_RELAY_URL — and the staff
 * messenger's store on it: every change is stored first, then published to the sockets
 * (services/stomp.ts). The REST routes are routes/messenger/.
 */
export default fp(
  async (app) => {
    const relayUrl = app.config.stompRelayUrl;
    const broker: Broker = relayUrl ? await createRelayBroker(relayUrl) : createEmbeddedBroker();
    const m = createMessengerStore(app.db, broker, app.users);
    const counters = createCounters(app);
    app.decorate('messenger', Object.assign(m, { broker, counters }));
    app.addHook('onClose', async () => broker.close());
  },
  { name: 'messenger', dependencies: ['auth', 'users'] },
);
