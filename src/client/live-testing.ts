/**
 * A stand-in for @stomp/stompjs's `Client` in component tests (`vi.mock('@stomp/stompjs')`):
 * no socket; the test opens and drops the connection and delivers MESSAGE frames, and sees
 * what the app subscribed, sent and acknowledged. Only what src/client/live.ts uses is here.
 * @example
 * vi.mock('@stomp/stompjs', async () => ({ Client: (await import('./live-testing.ts')).FakeStompClient }));
 * const client = FakeStompClient.last(); await client.open(); client.deliver('/user/1/msg', { action: 'NEW' });
 */
import type { IMessage, StompHeaders } from '@stomp/stompjs';

interface FakeSubscription {
  id: string;
  destination: string;
  headers: StompHeaders;
  callback: (message: IMessage) => void;
  active: boolean;
}

export class FakeStompClient {
  static readonly instances: FakeStompClient[] = [];
  /** The client the app made last. */
  static last(): FakeStompClient {
    const client = FakeStompClient.instances.at(-1);
    if (!client) throw new Error('the app made no STOMP client');
    return client;
  }

  connected = false;
  active = false;
  connectHeaders: StompHeaders = {};
  beforeConnect: ((client: FakeStompClient) => void | Promise<void>) | undefined;
  onConnect: (frame: unknown) => void = () => undefined;
  onWebSocketClose: (event: unknown) => void = () => undefined;
  onStompError: (frame: { headers: StompHeaders }) => void = () => undefined;
  /** Every SUBSCRIBE of the app, the ended ones too (`active` false). */
  readonly subscriptions: FakeSubscription[] = [];
  readonly published: Array<{ destination: string; body: string }> = [];
  /** The ack ids the app acknowledged, in order. */
  readonly acks: string[] = [];
  /** What happened, in order (`handled` entries are the tests' own, through `note`). */
  readonly log: string[] = [];
  #next = 0;

  constructor(config: Record<string, unknown>) {
    Object.assign(this, config);
    FakeStompClient.instances.push(this);
  }

  activate(): void {
    this.active = true;
  }

  async deactivate(): Promise<void> {
    this.active = false;
    this.connected = false;
  }

  subscribe(destination: string, callback: (message: IMessage) => void, headers: StompHeaders = {}) {
    const sub: FakeSubscription = { id: `sub-${this.#next++}`, destination, headers, callback, active: true };
    this.subscriptions.push(sub);
    return {
      id: sub.id,
      unsubscribe: () => {
        sub.active = false;
      },
    };
  }

  publish({ destination, body = '' }: { destination: string; body?: string }): void {
    this.published.push({ destination, body });
  }

  /** The CONNECTED frame: the app's beforeConnect runs first, as the real client's does. */
  async open(): Promise<void> {
    await this.beforeConnect?.(this);
    this.connected = true;
    this.onConnect({});
  }

  /** The socket goes away: subscriptions end with it. */
  drop(): void {
    this.connected = false;
    for (const s of this.subscriptions) s.active = false;
    this.onWebSocketClose({});
  }

  /** The live subscriptions to `destination`. */
  subscribed(destination: string): FakeSubscription[] {
    return this.subscriptions.filter((s) => s.active && s.destination === destination);
  }

  /**
   * A MESSAGE frame to every live subscription of `destination`; in an acknowledged
   * subscription it carries `ackId` (as the server's do), and `message.ack()` records it.
   */
  deliver(destination: string, body: unknown, ackId = `m-${this.#next++}`): void {
    const subs = this.subscribed(destination);
    if (!subs.length) throw new Error(`nothing subscribed to ${destination}`);
    for (const sub of subs) {
      const auto = (sub.headers.ack ?? 'auto') === 'auto';
      const message = {
        command: 'MESSAGE',
        headers: { subscription: sub.id, destination, 'message-id': ackId, ...(auto ? {} : { ack: ackId }) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
        ack: () => {
          if (auto || !this.connected) return;
          this.log.push(`ack ${ackId}`);
          this.acks.push(ackId);
        },
        nack: () => undefined,
      } as unknown as IMessage;
      this.log.push(`message ${ackId}`);
      sub.callback(message);
    }
  }

  /** A test's own entry in the log (e.g. when a handler ran). */
  note(entry: string): void {
    this.log.push(entry);
  }
}
