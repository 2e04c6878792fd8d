import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp } from '../support/app.ts';
import { connectLive, createStaff, STOMP_PASSWORD, type LiveClient } from '../support/stomp.ts';
import { TOKEN_EXPIRED } from '../../src/server/messenger/session.ts';
import { ACCESS_WITHDRAWN, SESSION_REVOKED } from '../../src/server/messenger/upkeep.ts';

/** Access tokens of this app live this long: a socket opened with one is ended then. */
const TOKEN_SECONDS = 3;

const waitUntil = async (check: () => boolean | Promise<boolean>, what: string, tries = 750) => {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
};

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`live socket sessions end with their token on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let url: string;
    const open: LiveClient[] = [];
    const connect = async (token: string, userId: string) => {
      const c = await connectLive(url, token, userId);
      open.push(c);
      return c;
    };
    const sessionsOf = (userId: string) => [...app.stompSessions].filter((s) => s.user?.id === userId).length;
    const errorOf = (c: LiveClient) => c.errors.map((e) => e.headers.message).join('; ');

    beforeAll(async () => {
      // Polling off (an hour): what ends a session here is its timer or a signal of a write.
      ({ app, close } = await startTestApp(backend.name, { accessTokenSeconds: TOKEN_SECONDS, livePollMs: 3_600_000 }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/gs-guide-websocket`;
    });
    afterAll(async () => {
      await Promise.all(open.map((c) => c.close()));
      await close?.();
    });

    it('closes the socket when its access token expires; the refreshed token reconnects and gets what was missed', async () => {
      const alice = await createStaff(app, 'alice');
      const session = await signIn(app, 'alice', STOMP_PASSWORD);
      const first = await connect(session.token, alice.id);
      await first.subscribe('msg');
      await waitUntil(() => first.errors.length > 0, 'the ERROR frame at expiry');
      expect(errorOf(first)).toBe(TOKEN_EXPIRED);
      await waitUntil(() => !first.client.connected && sessionsOf(alice.id) === 0, 'the socket to close');
      // The expired token opens nothing more.
      await expect(connectLive(url, session.token, alice.id)).rejects.toThrow(/invalid or expired token/);

      // Meanwhile Bob writes to her.
      const bob = await createStaff(app, 'bob');
      const sent = await app.inject({
        method: 'POST',
        url: '/api/chat-message/sendMessage',
        headers: { authorization: `Bearer ${bob.token}` },
        payload: { receiverId: Number(alice.id), message: 'Siz yoʻqligingizda' },
      });
      expect(sent.statusCode, sent.body).toBe(200);

      // The app's refresh, then the reconnect with the new token: the missed message comes first.
      const renewed = await app.inject({
        method: 'POST',
        url: '/api/o/token/',
        headers: { authorization: '' },
        payload: { grant_type: 'refresh_token', refresh_token: session.refreshToken },
      });
      expect(renewed.statusCode, renewed.body).toBe(200);
      expect(renewed.json().expires_in).toBe(TOKEN_SECONDS);
      const again = await connect(renewed.json().access_token as string, alice.id);
      await again.subscribe('msg');
      expect(await again.next('msg', (m) => m.message === 'Siz yoʻqligingizda')).toMatchObject({
        action: 'NEW',
        ownerId: Number(bob.id),
      });
    });

    it('ends the sockets of a session that signs out, and only those', async () => {
      await Promise.all(open.splice(0).map((c) => c.close()));
      await close();
      ({ app, close } = await startTestApp(backend.name, { livePollMs: 3_600_000 }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/gs-guide-websocket`;
      const carol = await createStaff(app, 'carol');
      const laptop = await signIn(app, 'carol', STOMP_PASSWORD);
      const phone = await signIn(app, 'carol', STOMP_PASSWORD);
      const onLaptop = await connect(laptop.token, carol.id);
      const onPhone = await connect(phone.token, carol.id);
      await onLaptop.subscribe('msg');
      await onPhone.subscribe('msg');
      const out = await app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: { authorization: `Bearer ${laptop.token}` },
        payload: { refresh_token: laptop.refreshToken },
      });
      expect(out.statusCode).toBe(200);
      await waitUntil(() => onLaptop.errors.length > 0, 'the laptop socket to be ended');
      expect(errorOf(onLaptop)).toBe(SESSION_REVOKED);
      expect(onPhone.errors).toEqual([]);
      expect(onPhone.client.connected).toBe(true);
      // A token of the revoked family opens no new socket either.
      await expect(connectLive(url, laptop.token, carol.id)).rejects.toThrow(/invalid or expired token/);
    });

    it('ends the sockets of a user who is disabled', async () => {
      const dave = await createStaff(app, 'dave');
      const socket = await connect(dave.token, dave.id);
      await socket.subscribe('msg');
      const userEntity = app.definitions.entities.get(app.definitions.access!.userEntity)!;
      const base = `/api${userEntity.manifest.base}`;
      const record = (await app.inject({ method: 'GET', url: `${base}/get/${dave.id}` })).json() as Record<
        string,
        unknown
      >;
      const { id: _id, status: _s, owner: _o, createdAt: _c, updatedAt: _u, ...data } = record;
      const updated = await app.inject({
        method: 'PUT',
        url: `${base}/update/${dave.id}`,
        payload: { ...data, canLogin: false },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      await waitUntil(() => socket.errors.length > 0, 'the socket of the disabled user to be ended');
      expect(errorOf(socket)).toBe(ACCESS_WITHDRAWN);
      await waitUntil(() => sessionsOf(dave.id) === 0, 'the session to go');
    });
  });
}
