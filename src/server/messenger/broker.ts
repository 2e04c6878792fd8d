/**
 * Where live events travel between the code that produces them and the sockets of the users
 * they are for. Topics are `u.<userId>.<channel>`. The in-process broker serves one instance;
 * the relay (relay.ts) carries the same topics through RabbitMQ so that several instances
 * reach each other's users.
 */
export interface LiveEvent {
  /** messenger_event id: the row stored before publishing (replay and de-duplication use it). */
  id: number;
  userId: string;
  channel: string;
  body: unknown;
}

export interface Broker {
  readonly kind: 'embedded' | 'rabbitmq';
  publish(event: LiveEvent): Promise<void>;
  /** Starts receiving one user's events on this instance; the returned function stops it. */
  subscribe(userId: string, handler: (event: LiveEvent) => void): () => void;
  /** Resolves once events published anywhere for this user reach this instance (the relay's upstream subscription is confirmed). */
  ready(userId: string): Promise<void>;
  close(): Promise<void>;
}

export const topicOf = (userId: string, channel: string): string => `u.${userId}.${channel}`;

/** Handlers per user, shared by both brokers (the relay adds one upstream subscription per user). */
export class LocalFanout {
  private readonly handlers = new Map<string, Set<(event: LiveEvent) => void>>();

  add(userId: string, handler: (event: LiveEvent) => void): { first: boolean; remove: () => boolean } {
    let set = this.handlers.get(userId);
    const first = !set;
    if (!set) this.handlers.set(userId, (set = new Set()));
    set.add(handler);
    return {
      first,
      remove: () => {
        set!.delete(handler);
        if (set!.size) return false;
        this.handlers.delete(userId);
        return true;
      },
    };
  }

  deliver(event: LiveEvent): void {
    for (const handler of this.handlers.get(event.userId) ?? []) handler(event);
  }
}

export function createEmbeddedBroker(): Broker {
  const fanout = new LocalFanout();
  return {
    kind: 'embedded',
    async publish(event) {
      fanout.deliver(event);
    },
    subscribe(userId, handler) {
      const { remove } = fanout.add(userId, handler);
      return () => void remove();
    },
    async ready() {},
    async close() {},
  };
}
