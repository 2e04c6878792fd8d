/**
 * The one live socket of the web app (spec §7 "Live socket"): STOMP 1.2 over WebSocket at
 * /gs-guide-websocket with @stomp/stompjs, the bearer token on CONNECT (read again before
 * each reconnect, so a refreshed token is used), reconnecting by itself. Screens subscribe
 * to the signed-in user's channels by name; subscriptions survive reconnects, and what was
 * missed meanwhile is replayed by the server. Subscriptions are `client-individual`: a
 * message is acknowledged once the screens' handlers ran, so one written to a socket that
 * died before the app read it is still undelivered on the server and comes again.
 */
import { Client, type IMessage, type StompSubscription } from '@stomp/stompjs';
import { getSetting } from './settings.ts';
import { refreshSession } from './session.ts';

export type LiveChannel =
  | 'msg'
  | 'groupMsg'
  | 'documentMarking'
  | 'notificationMsg'
  | 'notification'
  | 'unreadMessages'
  | 'unreadMessage'
  | 'makeRead'
  | 'incomingPerson';
type Handler = (body: Record<string, unknown>) => void;

let client: Client | undefined;
/** The token renewal an expired socket started; the next CONNECT waits for it. */
let renewing: Promise<unknown> = Promise.resolve();
const handlers = new Map<LiveChannel, Set<Handler>>();
const upstream = new Map<LiveChannel, StompSubscription>();
const statusListeners = new Set<(connected: boolean) => void>();

const socketUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/gs-guide-websocket`;

/** Hands a message to the channel's handlers, then acknowledges it (a failing handler neither stops the others nor the acknowledgement). */
function handle(channel: LiveChannel, message: IMessage): void {
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(message.body) as Record<string, unknown>;
  } catch (error) {
    console.error('live: a message that is not JSON', error);
  }
  if (body) {
    for (const h of [...(handlers.get(channel) ?? [])]) {
      try {
        h(body);
      } catch (error) {
        // Not acknowledging would bring the message back on every reconnect, to fail again.
        console.error(`live: a ${channel} handler failed`, error);
      }
    }
  }
  try {
    message.ack();
  } catch {
    // The socket went while the handlers ran: unacknowledged, the message comes again after the reconnect.
  }
}

function listen(channel: LiveChannel): void {
  const userId = getSetting('userId');
  if (!client?.connected || upstream.has(channel) || !userId) return;
  upstream.set(
    channel,
    client.subscribe(`/user/${userId}/${channel}`, (message) => handle(channel, message), { ack: 'client-individual' }),
  );
}

function ensureClient(): Client | undefined {
  if (client) return client;
  if (!getSetting('accessToken') || getSetting('isOuter')) return undefined;
  client = new Client({
    brokerURL: socketUrl(),
    reconnectDelay: 3000,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    beforeConnect: async (c) => {
      await renewing;
      c.connectHeaders = { Authorization: `Bearer ${getSetting('accessToken') ?? ''}` };
    },
  });
  client.onConnect = () => {
    upstream.clear();
    for (const channel of handlers.keys()) listen(channel);
    client!.publish({ destination: '/app/register', body: '{}' });
    for (const l of statusListeners) l(true);
  };
  client.onWebSocketClose = () => {
    upstream.clear();
    for (const l of statusListeners) l(false);
  };
  // The server ends a socket whose token expired (or refuses an expired one) with an ERROR
  // frame: renew the token, and the automatic reconnect uses it and is sent what it missed.
  // A session ended by sign-out or withdrawn access stays closed.
  client.onStompError = (frame) => {
    const message = frame.headers.message ?? '';
    if (/^session ended/.test(message)) void closeLive();
    else if (/token/.test(message)) {
      const c = client;
      renewing = refreshSession().then((ok) => {
        if (!ok && client === c) void closeLive();
      });
    }
  };
  client.activate();
  return client;
}

/** Receives the signed-in user's events on `channel` until the returned function is called. */
export function subscribeLive(channel: LiveChannel, handler: Handler): () => void {
  if (!handlers.has(channel)) handlers.set(channel, new Set());
  handlers.get(channel)!.add(handler);
  ensureClient();
  listen(channel);
  return () => {
    const set = handlers.get(channel);
    set?.delete(handler);
    if (set && !set.size) {
      handlers.delete(channel);
      upstream.get(channel)?.unsubscribe();
      upstream.delete(channel);
    }
  };
}

/** Sends to an application destination (`/app/...`) when connected; false otherwise. */
export function publishLive(destination: string, body: unknown): boolean {
  if (!client?.connected) return false;
  client.publish({ destination, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return true;
}

export function onLiveStatus(listener: (connected: boolean) => void): () => void {
  statusListeners.add(listener);
  listener(Boolean(client?.connected));
  return () => statusListeners.delete(listener);
}

/** Closes the socket (sign-out). */
export async function closeLive(): Promise<void> {
  const c = client;
  client = undefined;
  upstream.clear();
  await c?.deactivate();
}
