import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../src/server/auth/passwords.ts';
import { systemActor } from '../../src/server/auth/access.ts';
import { signIn } from './app.ts';

export const STOMP_PASSWORD = 'staff-password-1';

/** A staff (or outer) user with a password, signed in: id and bearer token. */
export async function createStaff(
  app: FastifyInstance,
  username: string,
  roles: string[] = ['employee'],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; token: string }> {
  const access = app.definitions.access!;
  const user = await app.store.create(
    access.userEntity,
    { username, firstName: username, lastName: 'Test', isOuter: false, canLogin: true, roles, ...extra },
    systemActor(),
  );
  await app.db.query('INSERT INTO credential (user_id, password_hash) VALUES ($1, $2)', [
    String(user.id),
    await hashPassword(STOMP_PASSWORD),
  ]);
  const session = await signIn(app, username, STOMP_PASSWORD);
  return { id: String(user.id), token: session.token };
}

export interface LiveClient {
  client: Client;
  /** Bodies received per channel, in order. */
  received: Map<string, Array<Record<string, unknown>>>;
  frames: IMessage[];
  errors: IFrame[];
  subscribe(channel: string, userId?: string, headers?: Record<string, string>): Promise<void>;
  /** Resolves with the first body on `channel` that satisfies `match` (already received or later). */
  next(
    channel: string,
    match?: (body: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  send(destination: string, body: unknown): Promise<void>;
  /** The raw socket under the client (to drop it as a network failure would). */
  socket(): WebSocket;
  close(): Promise<void>;
}

/**
 * A real @stomp/stompjs client over node's `ws`, connected with a bearer token. Resolves
 * once CONNECTED (or rejects with the ERROR frame's message).
 */
export async function connectLive(
  url: string,
  token: string | undefined,
  userId: string,
  options: { origin?: string; reconnect?: boolean } = {},
): Promise<LiveClient> {
  const received = new Map<string, Array<Record<string, unknown>>>();
  const frames: IMessage[] = [];
  const errors: IFrame[] = [];
  const waiters: Array<{
    channel: string;
    match: (b: Record<string, unknown>) => boolean;
    resolve: (b: Record<string, unknown>) => void;
  }> = [];
  let raw: WebSocket | undefined;
  let receipt = 0;
  const client = new Client({
    connectHeaders: { 'accept-language': 'en', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    reconnectDelay: options.reconnect ? 200 : 0,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    webSocketFactory: () => (raw = new WebSocket(url, ['v12.stomp'], options.origin ? { origin: options.origin } : {})),
  });
  const connected = new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (frame) => {
      errors.push(frame);
      reject(new Error(frame.headers.message));
    };
    client.onWebSocketClose = (event) => reject(new Error(`socket closed ${(event as { code?: number }).code ?? ''}`));
    client.onWebSocketError = () => reject(new Error('socket error'));
  });
  client.activate();
  await connected;
  client.onStompError = (frame) => errors.push(frame);
  const onMessage = (channel: string) => (message: IMessage) => {
    frames.push(message);
    const body = JSON.parse(message.body) as Record<string, unknown>;
    if (!received.has(channel)) received.set(channel, []);
    received.get(channel)!.push(body);
    for (const w of [...waiters]) {
      if (w.channel === channel && w.match(body)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(body);
      }
    }
  };
  const withReceipt = (action: (receiptId: string) => void) =>
    new Promise<void>((resolve, reject) => {
      const id = `r-${++receipt}`;
      const onError = setInterval(() => {
        if (errors.length) {
          clearInterval(onError);
          reject(new Error(errors.at(-1)!.headers.message));
        }
      }, 20);
      client.watchForReceipt(id, () => {
        clearInterval(onError);
        resolve();
      });
      action(id);
    });
  return {
    client,
    received,
    frames,
    errors,
    subscribe: (channel, forUser = userId, headers = {}) =>
      withReceipt((id) =>
        client.subscribe(`/user/${forUser}/${channel}`, onMessage(channel), { ...headers, receipt: id }),
      ),
    next(channel, match = () => true, timeoutMs = 10_000) {
      const found = received.get(channel)?.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`nothing on ${channel} in ${timeoutMs} ms; got ${JSON.stringify(received.get(channel) ?? [])}`),
            ),
          timeoutMs,
        );
        waiters.push({
          channel,
          match,
          resolve: (b) => {
            clearTimeout(timer);
            resolve(b);
          },
        });
      });
    },
    send: (destination, body) =>
      withReceipt((id) =>
        client.publish({
          destination,
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { receipt: id },
        }),
      ),
    socket: () => raw!,
    close: () => client.deactivate(),
  };
}
