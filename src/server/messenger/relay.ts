import { Client, type StompSubscription } from '@stomp/stompjs';
import WebSocket from 'ws';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { LocalFanout, SignalHandlers, type Broker, type LiveEvent, type Signal } from './broker.ts';

/**
 * The broker for several instances: events go through RabbitMQ's STOMP plugin (port 61613)
 * as `/exchange/amq.topic/u.<user>` messages; each instance subscribes, once per user with a
 * local socket, and hands what arrives to its own sockets. @stomp/stompjs is the client here
 * too, over a raw TCP socket adapted to its WebSocket-shaped interface.
 *
 * STOMP_RELAY_URL: `stomp://user:pass@host:61613/vhost` (or ws://…/ws for rabbitmq_web_stomp).
 */
export async function createRelayBroker(url: string): Promise<Broker> {
  const parsed = new URL(url);
  const fanout = new LocalFanout();
  const signals = new SignalHandlers();
  // Signals come back to their sender through the exchange too: its own are handled at once and skipped on the way back.
  const instance = randomUUID();
  const SIGNALS = '/exchange/amq.topic/portal.signals';
  const upstream = new Map<string, StompSubscription>();
  const confirmed = new Map<string, Promise<void>>();
  let receipts = 0;
  const login = decodeURIComponent(parsed.username || 'guest');
  const passcode = decodeURIComponent(parsed.password || 'guest');
  const vhost = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '/';
  const client = new Client({
    connectHeaders: { login, passcode, host: vhost },
    reconnectDelay: 1000,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    webSocketFactory: () =>
      parsed.protocol.startsWith('ws') ? new WebSocket(url) : tcpSocket(parsed.hostname, Number(parsed.port || 61613)),
  });
  const destination = (userId: string) => `/exchange/amq.topic/u.${userId}`;
  const listen = (userId: string) => {
    const receipt = `sub-${++receipts}`;
    // RabbitMQ answers the SUBSCRIBE's receipt once the binding exists: from then on nothing published for the user is missed here.
    confirmed.set(
      userId,
      new Promise((resolve) => {
        client.watchForReceipt(receipt, () => resolve());
        setTimeout(resolve, 5000).unref();
      }),
    );
    upstream.set(
      userId,
      client.subscribe(
        destination(userId),
        (message) => {
          fanout.deliver(JSON.parse(message.body) as LiveEvent);
        },
        { receipt },
      ),
    );
  };
  const connected = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`STOMP relay ${parsed.host} did not answer`)), 15_000);
    client.onConnect = () => {
      clearTimeout(timer);
      // After a reconnect the upstream subscriptions are gone: make them again.
      for (const userId of [...upstream.keys()]) listen(userId);
      // Ready once the signals' binding exists (its receipt), so no signal sent after start is missed.
      const receipt = `signals-${++receipts}`;
      client.watchForReceipt(receipt, () => resolve());
      client.subscribe(
        SIGNALS,
        (message) => {
          const { origin, ...signal } = JSON.parse(message.body) as Signal & { origin: string };
          if (origin !== instance) signals.deliver(signal as Signal);
        },
        { receipt },
      );
    };
    client.onStompError = (frame) => reject(new Error(`STOMP relay: ${frame.headers.message ?? 'error'}`));
  });
  client.activate();
  await connected;
  return {
    kind: 'rabbitmq',
    async publish(event) {
      // While RabbitMQ is away, this instance's own sockets still get the event; for the
      // others it stays undelivered in the database and their next SUBSCRIBE replays it.
      // The write that caused it stands either way.
      if (!client.connected) return fanout.deliver(event);
      try {
        client.publish({
          destination: destination(event.userId),
          body: JSON.stringify(event),
          headers: { 'content-type': 'application/json' },
        });
      } catch {
        fanout.deliver(event);
      }
    },
    signal(signal) {
      signals.deliver(signal);
      // Lost while RabbitMQ is away: the other instances' periodic recomputation covers it.
      if (client.connected) {
        try {
          client.publish({
            destination: SIGNALS,
            body: JSON.stringify({ ...signal, origin: instance }),
            headers: { 'content-type': 'application/json' },
          });
        } catch {
          // as above
        }
      }
    },
    onSignal: (handler) => signals.add(handler),
    subscribe(userId, handler) {
      const { first, remove } = fanout.add(userId, handler);
      if (first && client.connected) listen(userId);
      else if (first) upstream.set(userId, undefined as never);
      return () => {
        if (!remove()) return;
        const sub = upstream.get(userId);
        upstream.delete(userId);
        confirmed.delete(userId);
        if (sub && client.connected) sub.unsubscribe();
      };
    },
    async ready(userId) {
      await confirmed.get(userId);
    },
    async close() {
      await client.deactivate();
    },
  };
}

/** A TCP connection shaped like the WebSocket that @stomp/stompjs expects (text frames). */
function tcpSocket(host: string, port: number): never {
  const socket = net.createConnection({ host, port });
  const ws: Record<string, unknown> = {
    binaryType: 'arraybuffer',
    readyState: 0,
    url: `tcp://${host}:${port}`,
    protocol: '',
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
    send: (data: string) => socket.write(data),
    close: () => socket.end(),
    terminate: () => socket.destroy(),
  };
  socket.setEncoding('utf8');
  socket.on('connect', () => {
    ws.readyState = 1;
    (ws.onopen as (() => void) | null)?.();
  });
  socket.on('data', (data: string) => (ws.onmessage as ((e: { data: string }) => void) | null)?.({ data }));
  socket.on('error', (error) => (ws.onerror as ((e: unknown) => void) | null)?.(error));
  socket.on('close', () => {
    ws.readyState = 3;
    (ws.onclose as ((e: { code: number; reason: string }) => void) | null)?.({ code: 1006, reason: 'closed' });
  });
  return ws as never;
}
