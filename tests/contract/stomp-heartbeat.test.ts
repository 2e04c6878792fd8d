/**
 * Heart-beats on the live socket with short negotiated intervals (the server's wish 200 ms):
 * raw STOMP frames over `ws`, so the test alone decides what the client sends. The server's
 * beats arrive where the client asked for them and not where it did not; a client that
 * promised beats and goes silent is closed, one that keeps beating stays. Nothing is timed:
 * the tests wait for beats to arrive and for a socket to close.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { startTestApp } from '../support/app.ts';
import { createStaff } from '../support/stomp.ts';

const HEARTBEAT_MS = 200;

interface RawClient {
  ws: WebSocket;
  frames: string[];
  beats(): number;
  closed: Promise<void>;
}

const waitUntil = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`gave up waiting for ${what}`);
};

describe('live socket heart-beats', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let url: string;
  let user: { id: string; token: string };
  const clients: RawClient[] = [];

  /** Opens a socket and CONNECTs with `heart-beat: <heartBeat>`; resolves on CONNECTED. */
  const connect = async (heartBeat: string): Promise<RawClient> => {
    const ws = new WebSocket(url, ['v12.stomp']);
    const frames: string[] = [];
    let beats = 0;
    const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
    ws.on('message', (data) => {
      const text = data.toString();
      if (/^(\r?\n)+$/.test(text)) beats += text.split('\n').length - 1;
      else frames.push(text);
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send(
      `CONNECT\naccept-version:1.2\nhost:localhost\nAuthorization:Bearer ${user.token}\nheart-beat:${heartBeat}\n\n\0`,
    );
    await waitUntil(() => frames.length > 0, 'CONNECTED');
    expect(frames[0]).toMatch(/^CONNECTED\n/);
    const client = { ws, frames, beats: () => beats, closed };
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    ({ app, close } = await startTestApp('pglite', { stompHeartbeatMs: HEARTBEAT_MS }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/gs-guide-websocket`;
    user = await createStaff(app, 'beating');
  });
  afterAll(async () => {
    for (const c of clients) c.ws.terminate();
    await close?.();
  });

  it('announces its wish in CONNECTED and sends beats to a client that asked for them, none to one that did not', async () => {
    const asking = await connect(`0,${HEARTBEAT_MS / 2}`);
    const notAsking = await connect('0,0');
    expect(asking.frames[0]).toContain(`\nheart-beat:${HEARTBEAT_MS},${HEARTBEAT_MS}\n`);
    await waitUntil(() => asking.beats() >= 3, 'three heart-beats');
    expect(notAsking.beats()).toBe(0);
    // Beats are EOLs between frames: the connection still takes frames.
    asking.ws.send('SUBSCRIBE\nid:0\ndestination:/user/' + user.id + '/msg\nreceipt:r1\n\n\0');
    await waitUntil(() => asking.frames.some((f) => f.startsWith('RECEIPT\n')), 'the receipt');
  });

  it('closes a client that promised beats and stays silent past the grace; one that beats, or promised none, stays', async () => {
    const silent = await connect(`${HEARTBEAT_MS},0`);
    const beating = await connect(`${HEARTBEAT_MS},0`);
    const promisedNone = await connect('0,0');
    const beat = setInterval(() => beating.ws.send('\n'), HEARTBEAT_MS / 2);
    try {
      await silent.closed;
      expect(beating.ws.readyState).toBe(WebSocket.OPEN);
      expect(promisedNone.ws.readyState).toBe(WebSocket.OPEN);
      await waitUntil(
        () =>
          [...app.stompSessions].filter((s) => s.user?.id === user.id).length ===
          clients.filter((c) => c.ws.readyState === WebSocket.OPEN).length,
        'the server to forget the silent session',
      );
    } finally {
      clearInterval(beat);
    }
  });
});
