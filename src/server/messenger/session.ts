import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { encodeFrame, FrameError, FrameParser, type Frame } from './frame.ts';
import type { Broker, LiveEvent } from './broker.ts';
import type { Locale } from '../../shared/locales.ts';

/**
 * Serialized event bodies: one event staged for a group's fifty members shares one body
 * object, so it is turned into JSON once, not once per subscriber.
 */
const serialized = new WeakMap<object, string>();
const bodyText = (body: unknown): string => {
  if (!body || typeof body !== 'object') return JSON.stringify(body);
  let text = serialized.get(body);
  if (text === undefined) serialized.set(body, (text = JSON.stringify(body)));
  return text;
};

/** The per-user channels a client may subscribe to, as `/user/<own id>/<channel>`. */
export const USER_CHANNELS = [
  'msg',
  'groupMsg',
  'documentMarking',
  'notificationMsg',
  'notification',
  'unreadMessages',
  'unreadMessage',
  'makeRead',
] as const;
/** Only for users of the security role. */
export const SECURITY_CHANNEL = 'incomingPerson';

/** The server's heart-beat wish (ms), both ways: it can send that often and wants to hear from a client that often. */
export const DEFAULT_HEARTBEAT_MS = 10_000;

/**
 * A silent peer is dropped after two of its negotiated intervals and a margin (network
 * jitter, a busy browser tab): its events stay undelivered for the next connection.
 */
export const silenceLimit = (incomingMs: number): number => incomingMs * 2 + 1000;

/**
 * The heart-beat intervals of a connection (STOMP 1.2 "Heart-beating"): from the CONNECT's
 * `heart-beat: cx,cy` and the server's wish, the server sends every max(cy, server) ms and
 * expects to hear every max(cx, server) ms; 0 on either side means none that way.
 * @example negotiateHeartbeat('5000,30000', 10000) // { send: 30000, receive: 10000 }
 */
export function negotiateHeartbeat(header: string | undefined, serverMs: number): { send: number; receive: number } {
  const [cx = 0, cy = 0] = (header ?? '0,0').split(',').map((n) => Math.max(0, Math.trunc(Number(n)) || 0));
  return { send: cy && serverMs ? Math.max(cy, serverMs) : 0, receive: cx && serverMs ? Math.max(cx, serverMs) : 0 };
}

export interface SessionUser {
  id: string;
  security: boolean;
  locale: Locale;
  /** When the CONNECT's access token expires (ms since the epoch): the session ends then. */
  expiresAt?: number | undefined;
  /** The token's refresh family: the session ends when it is revoked (sign-out, reuse). */
  sid?: string | undefined;
}

/** The ERROR message when the token runs out; the web app refreshes its token on it and reconnects. */
export const TOKEN_EXPIRED = 'access token expired';

/** The role code of the entrance guards (schemas/_access/access.json): the only ones on incomingPerson. */
export const SECURITY_ROLE = 'security';

export interface SessionHooks {
  /** The user of a CONNECT frame's token, or undefined (bad, expired, blocked). */
  authenticate(headers: Record<string, string>): Promise<SessionUser | undefined>;
  /** A SEND to `/app/...`; throws an error whose message goes into the ERROR frame. */
  onSend(user: SessionUser, destination: string, body: string, session: StompSession): Promise<void>;
  /** Events not yet delivered to this user on this channel (oldest first). */
  pending(userId: string, channel: string): Promise<LiveEvent[]>;
  /** Marks events as received by a socket of their user. */
  delivered(ids: number[]): void;
  /** The CONNECT succeeded (before CONNECTED is written): presence counts this socket from now on. */
  connected?(session: StompSession): Promise<void>;
}

/** A MESSAGE awaiting its ACK: its ack id and its stored event (0 for state, which has no row). */
interface Unacked {
  ack: string;
  eventId: number;
}
interface Subscription {
  id: string;
  channel: string;
  ack: 'auto' | 'client' | 'client-individual';
  unacked: Unacked[];
}

/**
 * One STOMP 1.2 connection over one WebSocket: CONNECT with a bearer token, SUBSCRIBE to
 * own channels, SEND to application destinations, ACK/NACK, receipts, heart-beats and
 * transactions (BEGIN/COMMIT/ABORT buffer SENDs). Any protocol violation gets an ERROR frame
 * and the connection is closed, as the protocol prescribes.
 */
export class StompSession {
  readonly id = randomUUID();
  user: SessionUser | undefined;
  private readonly parser = new FrameParser();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly sent = new Set<number>();
  private readonly transactions = new Map<string, Frame[]>();
  private unsubscribeBroker: (() => void) | undefined;
  private outTimer: NodeJS.Timeout | undefined;
  private inTimer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private lastIn = Date.now();
  private lastOut = Date.now();
  private closed = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ws: WebSocket,
    private readonly broker: Broker,
    private readonly hooks: SessionHooks,
    private readonly heartbeatMs = DEFAULT_HEARTBEAT_MS,
  ) {
    ws.on('message', (data, isBinary) => {
      this.lastIn = Date.now();
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      let frames: Frame[];
      try {
        frames = this.parser.push(text).frames;
      } catch (error) {
        this.fail(error instanceof FrameError ? error.message : 'malformed frame');
        return;
      }
      // Frames are handled strictly in order, one at a time.
      for (const frame of frames)
        this.queue = this.queue
          .then(() => this.handle(frame))
          .catch((error: Error) => this.fail(error.message, frame.headers.receipt));
    });
    ws.on('close', () => this.dispose());
    ws.on('error', () => this.dispose());
  }

  private write(frame: Frame): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.lastOut = Date.now();
    this.ws.send(encodeFrame(frame));
  }

  /** ERROR, then close (STOMP: the server closes the connection after an ERROR frame). */
  fail(message: string, receipt?: string): void {
    if (this.closed) return;
    this.write({
      command: 'ERROR',
      headers: { message, 'content-type': 'text/plain', ...(receipt ? { 'receipt-id': receipt } : {}) },
      body: message,
    });
    this.dispose();
    // Let the ERROR frame leave before the close frame.
    setTimeout(() => this.ws.close(1002, 'STOMP error'), 10).unref();
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribeBroker?.();
    clearInterval(this.outTimer);
    clearInterval(this.inTimer);
    clearTimeout(this.expiryTimer);
  }

  private receipt(frame: Frame): void {
    if (frame.headers.receipt !== undefined)
      this.write({ command: 'RECEIPT', headers: { 'receipt-id': frame.headers.receipt }, body: '' });
  }

  private async handle(frame: Frame): Promise<void> {
    if (this.closed) return;
    if (!this.user) {
      if (frame.command !== 'CONNECT' && frame.command !== 'STOMP') throw new Error('CONNECT expected');
      return this.connect(frame);
    }
    const tx = frame.headers.transaction;
    if (tx !== undefined && (frame.command === 'SEND' || frame.command === 'ACK' || frame.command === 'NACK')) {
      const buffered = this.transactions.get(tx);
      if (!buffered) throw new Error(`no transaction ${tx}`);
      buffered.push(frame);
      return this.receipt(frame);
    }
    switch (frame.command) {
      case 'SUBSCRIBE':
        return this.subscribe(frame);
      case 'UNSUBSCRIBE': {
        if (!this.subscriptions.delete(frame.headers.id ?? '')) throw new Error('no such subscription');
        return this.receipt(frame);
      }
      case 'SEND': {
        const destination = frame.headers.destination ?? '';
        if (!destination.startsWith('/app/')) throw new Error(`cannot send to ${destination}`);
        await this.hooks.onSend(this.user, destination, frame.body, this);
        return this.receipt(frame);
      }
      case 'ACK':
      case 'NACK': {
        this.ack(frame.headers.id ?? '', frame.command === 'ACK');
        return this.receipt(frame);
      }
      case 'BEGIN': {
        if (!tx || this.transactions.has(tx)) throw new Error('bad transaction');
        this.transactions.set(tx, []);
        return this.receipt(frame);
      }
      case 'COMMIT':
      case 'ABORT': {
        const buffered = this.transactions.get(tx ?? '');
        if (!buffered) throw new Error(`no transaction ${tx}`);
        this.transactions.delete(tx!);
        if (frame.command === 'COMMIT')
          for (const f of buffered)
            await this.handle({
              ...f,
              headers: { ...f.headers, transaction: undefined as never, receipt: undefined as never },
            });
        return this.receipt(frame);
      }
      case 'DISCONNECT': {
        this.receipt(frame);
        this.dispose();
        setTimeout(() => this.ws.close(1000), 10).unref();
        return;
      }
      default:
        throw new Error(`unknown command ${frame.command}`);
    }
  }

  private async connect(frame: Frame): Promise<void> {
    const versions = (frame.headers['accept-version'] ?? '1.0').split(',');
    if (!versions.includes('1.2')) throw new Error('only STOMP 1.2 is supported');
    const user = await this.hooks.authenticate(frame.headers);
    if (!user) throw new Error('invalid or expired token');
    this.user = user;
    // A socket lives no longer than the token it was opened with: then ERROR and close, and the client comes back with a fresh one.
    if (user.expiresAt !== undefined)
      this.expiryTimer = setTimeout(
        () => this.fail(TOKEN_EXPIRED),
        Math.max(0, Math.min(user.expiresAt - Date.now(), 2 ** 31 - 1)),
      ).unref();
    const { send: out, receive: inc } = negotiateHeartbeat(frame.headers['heart-beat'], this.heartbeatMs);
    if (out)
      this.outTimer = setInterval(() => {
        if (Date.now() - this.lastOut >= out) {
          this.lastOut = Date.now();
          if (this.ws.readyState === this.ws.OPEN) this.ws.send('\n');
        }
      }, out / 2).unref();
    // A silent peer is gone: close, its events stay undelivered.
    if (inc)
      this.inTimer = setInterval(() => {
        if (Date.now() - this.lastIn > silenceLimit(inc)) this.ws.terminate();
      }, inc).unref();
    this.unsubscribeBroker = this.broker.subscribe(user.id, (event) => this.deliver(event));
    // CONNECTED only when events for this user reach this instance: a SUBSCRIBE's replay and live delivery then leave no gap.
    await this.broker.ready(user.id);
    // A socket closed meanwhile is not announced (its close has passed already).
    if (!this.closed) await this.hooks.connected?.(this);
    this.write({
      command: 'CONNECTED',
      headers: {
        version: '1.2',
        'heart-beat': `${this.heartbeatMs},${this.heartbeatMs}`,
        session: this.id,
        server: 'portal',
      },
      body: '',
    });
  }

  private async subscribe(frame: Frame): Promise<void> {
    const { id, destination = '' } = frame.headers;
    if (id === undefined || this.subscriptions.has(id)) throw new Error('subscription id missing or in use');
    const match = /^\/user\/([^/]+)\/([A-Za-z]+)$/.exec(destination);
    const channel = match?.[2] ?? '';
    const own = match?.[1] === this.user!.id;
    const allowed =
      (USER_CHANNELS as readonly string[]).includes(channel) || (channel === SECURITY_CHANNEL && this.user!.security);
    if (!match || !own || !allowed) throw new Error(`forbidden subscription ${destination}`);
    const ack = (frame.headers.ack ?? 'auto') as Subscription['ack'];
    if (!['auto', 'client', 'client-individual'].includes(ack)) throw new Error('bad ack mode');
    this.subscriptions.set(id, { id, channel, ack, unacked: [] });
    // What this user missed on the channel, then live; ids already sent are not sent twice.
    for (const event of await this.hooks.pending(this.user!.id, channel)) this.deliver(event);
    this.receipt(frame);
  }

  /** Writes an event to every subscription of its channel. */
  deliver(event: LiveEvent): void {
    if (this.closed) return;
    if (event.id && this.sent.has(event.id)) return;
    const destination = `/user/${event.userId}/${event.channel}`;
    let autoDelivered = false;
    for (const sub of this.subscriptions.values()) {
      if (sub.channel !== event.channel) continue;
      const messageId = String(event.id || randomUUID());
      const headers: Record<string, string> = {
        subscription: sub.id,
        'message-id': messageId,
        destination,
        'content-type': 'application/json',
      };
      if (sub.ack !== 'auto') {
        // STOMP 1.2: every MESSAGE of an acknowledged subscription carries an ack id, state
        // (counters, replies) too; acknowledging state marks no row.
        headers.ack = messageId;
        sub.unacked.push({ ack: messageId, eventId: event.id });
      } else autoDelivered = true;
      this.write({ command: 'MESSAGE', headers, body: bodyText(event.body) });
    }
    if (!event.id) return;
    if (this.sent.size > 10_000) this.sent.clear();
    if (autoDelivered || [...this.subscriptions.values()].some((s) => s.channel === event.channel))
      this.sent.add(event.id);
    if (autoDelivered) this.hooks.delivered([event.id]);
  }

  private ack(ackId: string, positive: boolean): void {
    for (const sub of this.subscriptions.values()) {
      const at = sub.unacked.findIndex((u) => u.ack === ackId);
      if (at < 0) continue;
      // `client` acknowledges cumulatively; `client-individual` one message.
      const done = (sub.ack === 'client' ? sub.unacked.splice(0, at + 1) : sub.unacked.splice(at, 1))
        .map((u) => u.eventId)
        .filter((id) => id > 0);
      if (positive) {
        if (done.length) this.hooks.delivered(done);
      }
      // A NACK leaves the events undelivered: they come again on the next subscription.
      else for (const id of done) this.sent.delete(id);
      return;
    }
    throw new Error(`nothing to acknowledge with id ${ackId}`);
  }

  /** Whether this session has a subscription to `channel`. */
  listens(channel: string): boolean {
    return [...this.subscriptions.values()].some((s) => s.channel === channel);
  }

  /** Sends an event straight to this socket (replies to a request of this session). */
  reply(event: LiveEvent): void {
    this.deliver(event);
  }
}
