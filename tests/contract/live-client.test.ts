/**
 * The web app's live client (src/client/live.ts) against the real server, in Node: `ws` stands
 * in for the browser's WebSocket and can lose a frame as a dying network would — the server
 * wrote the message, the socket died before the app read it. Because the app acknowledges
 * only what it handled (`client-individual`), the message is still undelivered on the server
 * and the app gets it after its own reconnect. With automatic acknowledgement the server
 * counted it delivered when written, and it was lost.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { startTestApp } from '../support/app.ts';
import { createStaff } from '../support/stomp.ts';
import { setSetting } from '../../src/client/settings.ts';

/** A browser-like WebSocket whose next incoming frame matching `lose` never reaches the app: the socket dies instead. */
class LossyWebSocket extends WebSocket {
  static lose: ((frame: string) => boolean) | undefined;
  static opened = 0;
  constructor(url: string, protocols?: string | string[]) {
    super(url, protocols);
    LossyWebSocket.opened++;
  }
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'message' && LossyWebSocket.lose?.(String(args[0]))) {
      LossyWebSocket.lose = undefined;
      this.terminate();
      return true;
    }
    return super.emit(event, ...args);
  }
}

const waitUntil = async (check: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 750; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
};

describe('the web app’s live client against the server', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let live: typeof import('../../src/client/live.ts');
  const storage = new Map<string, string>();

  beforeAll(async () => {
    ({ app, close } = await startTestApp('pglite'));
    await app.listen({ port: 0, host: '127.0.0.1' });
    alice = await createStaff(app, 'alice');
    bob = await createStaff(app, 'bob');
    const { port } = app.server.address() as { port: number };
    vi.stubGlobal('location', { protocol: 'http:', host: `127.0.0.1:${port}` });
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
      removeItem: (k: string) => void storage.delete(k),
    });
    vi.stubGlobal('WebSocket', LossyWebSocket);
    setSetting('accessToken', bob.token);
    setSetting('userId', Number(bob.id));
    live = await import('../../src/client/live.ts');
  });
  afterAll(async () => {
    await live?.closeLive();
    vi.unstubAllGlobals();
    await close?.();
  });

  const undelivered = async (text: string) =>
    (
      await app.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM messenger_event WHERE user_id = $1 AND channel = 'msg' AND body->>'message' = $2 AND delivered_at IS NULL`,
        [bob.id, text],
      )
    ).rows[0]!.n;
  const send = async (text: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/chat-message/sendMessage',
      headers: { authorization: `Bearer ${alice.token}` },
      payload: { receiverId: Number(bob.id), message: text },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('acknowledges what it handled, and gets again a message its dying socket never handed over', async () => {
    const texts: string[] = [];
    const states: boolean[] = [];
    const offs = [
      live.subscribeLive('msg', (body) => texts.push(String(body.message))),
      live.onLiveStatus((up) => states.push(up)),
    ];
    try {
      await waitUntil(() => states.at(-1) === true, 'the socket');
      await waitUntil(
        () => [...app.stompSessions].some((s) => s.user?.id === bob.id && s.listens('msg')),
        'the subscription',
      );

      await send('handed over');
      await waitUntil(() => texts.includes('handed over'), 'the first message');
      await waitUntil(async () => (await undelivered('handed over')) === 0, 'its acknowledgement');

      LossyWebSocket.lose = (frame) => frame.startsWith('MESSAGE') && frame.includes('lost in transit');
      await send('lost in transit');
      // The socket died with the frame; the client reconnects by itself (3 s) and the SUBSCRIBE replays.
      await waitUntil(() => texts.includes('lost in transit'), 'the replayed message');
      expect(LossyWebSocket.opened).toBe(2);
      expect(states).toContain(false);
      expect(texts).toEqual(['handed over', 'lost in transit']);
      await waitUntil(
        async () => (await undelivered('lost in transit')) === 0,
        'the replayed message’s acknowledgement',
      );
    } finally {
      offs.forEach((off) => off());
    }
  });
});
