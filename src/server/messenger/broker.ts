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

/**
 * A note to every instance (this one included) that state they keep per socket may be stale:
 * `changed` — records changed, so header counters and the sessions' rights are computed
 * again (an instance cannot know whose counters a write touched without recomputing them);
 * `users` — only these users' sessions and counters.
 */
export type Signal = { kind: 'changed' } | { kind: 'users'; userIds: string[] };

export interface Broker {
  readonly kind: 'embedded' | 'rabbitmq';
  publish(event: LiveEvent): Promise<void>;
  /** Tells every instance, this one at once and the others through the relay. */
  signal(signal: Signal): void;
  /** Receives every signal (own ones included) until the returned function is called. */
  onSignal(handler: (signal: Signal) => void): () => void;
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

/** Signal handlers of one instance. */
export class SignalHandlers {
  private readonly handlers = new Set<(signal: Signal) => void>();

  add(handler: (signal: Signal) => void): () => void {
    this.handlers.add(handler);
    return () => void this.handlers.delete(handler);
  }

  deliver(signal: Signal): void {
    for (const handler of this.handlers) handler(signal);
  }
}

export function createEmbeddedBroker(): Broker {
  const fanout = new LocalFanout();
  const signals = new SignalHandlers();
  return {
    kind: 'embedded',
    async publish(event) {
      fanout.deliver(event);
    },
    signal: (signal) => signals.deliver(signal),
    onSignal: (handler) => signals.add(handler),
    subscribe(userId, handler) {
      const { remove } = fanout.add(userId, handler);
      return () => void remove();
    },
    async ready() {},
    async close() {},
  };
}
