import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { forgedToken, startTestApp } from '../support/app.ts';
import access from '../../schemas/_access/access.json' with { type: 'json' };
import { connectLive, createStaff, type LiveClient } from '../support/stomp.ts';

const waitUntil = async (check: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
};

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`live socket (STOMP 1.2) on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let url: string;
    let alice: { id: string; token: string };
    let bob: { id: string; token: string };
    let carol: { id: string; token: string };
    let guard: { id: string; token: string };
    const open: LiveClient[] = [];
    const live = async (
      user: { id: string; token: string },
      channels: string[] = ['msg', 'groupMsg', 'makeRead', 'unreadMessage', 'unreadMessages'],
    ) => {
      const c = await connectLive(url, user.token, user.id);
      open.push(c);
      for (const ch of channels) await c.subscribe(ch);
      return c;
    };
    /** Earlier tests' clients go: a reconnect test needs the user to have no other socket. */
    const closeAll = async () => {
      await Promise.all(open.splice(0).map((c) => c.close()));
      await waitUntil(() => app.stompSessions.size === 0, 'every session to end');
    };
    const as = (user: { token: string }, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown) =>
      app.inject({
        method,
        url: path,
        payload: payload as never,
        headers: { authorization: `Bearer ${user.token}`, 'accept-language': 'en' },
      });

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address() as { port: number };
      url = `ws://127.0.0.1:${address.port}/gs-guide-websocket`;
      alice = await createStaff(app, 'alice');
      bob = await createStaff(app, 'bob');
      carol = await createStaff(app, 'carol');
      guard = await createStaff(app, 'guard', ['security']);
    });
    afterAll(async () => {
      await Promise.all(open.map((c) => c.close()));
      await close?.();
    });

    it('delivers a direct message to both people of the chat, stored before it is published', async () => {
      const a = await live(alice);
      const b = await live(bob);
      await a.send('/app/sendMessage', { receiverId: Number(bob.id), message: 'Salom, Bob' });
      const got = await b.next('msg', (m) => m.message === 'Salom, Bob');
      expect(got).toMatchObject({ action: 'NEW', ownerId: Number(alice.id), isRead: 'UNREAD', edited: false });
      expect(await a.next('msg', (m) => m.message === 'Salom, Bob')).toMatchObject({ id: got.id });
      expect(await b.next('unreadMessage', (m) => m.chatId === got.chatId)).toMatchObject({ count: 1 });
      const stored = await as(bob, 'POST', `/api/chat-message/get-by-chatId/${got.chatId}`, {
        page: 0,
        itemsPerPage: 10,
      });
      expect(stored.json().list.map((m: { message: string }) => m.message)).toEqual(['Salom, Bob']);
      // Delivered to a socket of each: nothing left to replay.
      await waitUntil(
        async () =>
          (
            await app.db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM messenger_event WHERE channel = 'msg' AND delivered_at IS NULL`,
            )
          ).rows[0]!.n === 0,
        'delivery marks',
      );
    });

    it('propagates edit, delete and read state live', async () => {
      const a = await live(alice);
      const b = await live(bob);
      const chatId = (await as(alice, 'POST', `/api/chat/create/${bob.id}`)).json().chatId as number;
      const sending = await as(alice, 'POST', '/api/chat-message/sendMessage', { chatId, message: 'first draft' });
      expect(sending.statusCode, sending.body).toBe(200);
      const sent = sending.json();
      await b.next('msg', (m) => m.id === sent.id && m.action === 'NEW');

      const edited = await as(alice, 'POST', '/api/chat-message/edit', { id: sent.id, message: 'second draft' });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(await b.next('msg', (m) => m.id === sent.id && m.action === 'EDIT')).toMatchObject({
        message: 'second draft',
        edited: true,
      });
      // Only the author edits.
      expect((await as(bob, 'POST', '/api/chat-message/edit', { id: sent.id, message: 'mine now' })).statusCode).toBe(
        403,
      );

      const read = await as(bob, 'POST', '/api/chat-message/make-read', { chatId });
      expect(read.json().read).toBeGreaterThanOrEqual(1);
      const mark = await a.next('makeRead', (m) => m.chatId === chatId);
      expect(mark).toMatchObject({ isRead: 'READ', readerId: Number(bob.id) });
      expect(mark.messageIds).toContain(sent.id);
      const page = (await as(alice, 'POST', `/api/chat-message/get-by-chatId/${chatId}`, {})).json();
      expect(page.list.find((m: { id: number }) => m.id === sent.id).isRead).toBe('READ');

      expect((await as(bob, 'DELETE', `/api/chat-message/delete/${sent.id}`)).statusCode).toBe(403);
      expect((await as(alice, 'DELETE', `/api/chat-message/delete/${sent.id}`)).statusCode).toBe(200);
      expect(await b.next('msg', (m) => m.id === sent.id && m.action === 'DELETE')).toMatchObject({ chatId });
      const after = (await as(bob, 'POST', `/api/chat-message/get-by-chatId/${chatId}`, {})).json();
      expect(after.list.some((m: { id: number }) => m.id === sent.id)).toBe(false);
    });

    it('delivers group messages to every member and to no one else', async () => {
      const a = await live(alice);
      const b = await live(bob);
      const c = await live(carol);
      const group = await as(alice, 'POST', '/api/groupChat/create', {
        name: 'Huquq bo‘limi',
        memberIds: [Number(bob.id)],
      });
      expect(group.statusCode, group.body).toBe(200);
      const groupChatId = group.json().id as number;
      expect(group.json().count).toBe(2);
      await a.send('/app/sendGroupMessage', { groupChatId, message: 'Yig‘ilish soat 10 da' });
      expect(await b.next('groupMsg', (m) => m.message === 'Yig‘ilish soat 10 da')).toMatchObject({
        action: 'NEW',
        groupChatId,
      });
      // Carol is not a member: sending there is refused and she hears nothing.
      await expect(c.send('/app/sendGroupMessage', { groupChatId, message: 'let me in' })).rejects.toThrow(
        /not found/i,
      );
      expect((c.received.get('groupMsg') ?? []).some((m) => m.groupChatId === groupChatId && m.action === 'NEW')).toBe(
        false,
      );
      expect((await as(carol, 'POST', `/api/groupChat/get-by-chatId/${groupChatId}`, {})).statusCode).toBe(404);

      const added = await as(alice, 'POST', `/api/groupChat/add-members/${groupChatId}`, {
        memberIds: [Number(carol.id)],
      });
      expect(added.json().count).toBe(3);
      const c2 = await live(carol);
      await a.send('/app/sendGroupMessage', { groupChatId, message: 'Xush kelibsiz' });
      await c2.next('groupMsg', (m) => m.message === 'Xush kelibsiz');
      const list = (await as(carol, 'POST', '/api/groupChat/list', { page: 0, itemsPerPage: 10 })).json();
      expect(list.list.find((g: { id: number }) => g.id === groupChatId)).toMatchObject({ count: 3, unreadCount: 1 });
    });

    it('refuses a subscription to another user’s channel, and incomingPerson to all but security', async () => {
      const a = await connectLive(url, alice.token, alice.id);
      open.push(a);
      await expect(a.subscribe('msg', bob.id)).rejects.toThrow(/forbidden subscription/);
      await waitUntil(() => !a.client.connected || a.socket().readyState !== WebSocket.OPEN, 'the socket to close');

      const a2 = await connectLive(url, alice.token, alice.id);
      open.push(a2);
      await expect(a2.subscribe('incomingPerson')).rejects.toThrow(/forbidden subscription/);

      const g = await connectLive(url, guard.token, guard.id);
      open.push(g);
      await g.subscribe('incomingPerson');
      const told = await app.inject({
        method: 'POST',
        url: '/api/incoming-person',
        payload: { personName: 'Karimov A.', deviceName: 'enter' },
      });
      expect(told.json().notified).toBe(1);
      expect(await g.next('incomingPerson')).toMatchObject({ personName: 'Karimov A.', direction: 'ENTER' });
      await app.inject({
        method: 'POST',
        url: '/api/incoming-person',
        payload: { personName: 'Karimov A.', deviceName: 'turnstile-2' },
      });
      expect(await g.next('incomingPerson', (e) => e.direction === 'EXIT')).toMatchObject({
        deviceName: 'turnstile-2',
      });
      expect(
        (await as(alice, 'POST', '/api/incoming-person', { personName: 'x', deviceName: 'enter' })).statusCode,
      ).toBe(403);
    });

    it('announces a document marking only with announce Message, only to staff and only a valid body; the recipients get it on documentMarking', async () => {
      const head = await createStaff(app, 'head', ['department-head']);
      const curator = await createStaff(app, 'curator', ['curator']);
      const citizen = await createStaff(app, 'citizen', ['citizen'], { isOuter: true });
      const b = await live(bob, ['documentMarking']);
      const c = await live(carol, ['documentMarking']);
      const h = await live(head, []);
      await h.send('/app/announcementDocumentMarking', {
        userIds: [Number(bob.id), Number(carol.id), Number(bob.id)],
        documentId: 501,
        regNumber: '01-12/345',
        message: 'Ijro uchun',
      });
      const got = await b.next('documentMarking', (m) => m.documentId === 501);
      expect(got).toMatchObject({
        documentId: 501,
        regNumber: '01-12/345',
        message: 'Ijro uchun',
        fromUserId: Number(head.id),
      });
      expect(Object.keys(got).sort()).toEqual(['at', 'documentId', 'fromUserId', 'message', 'regNumber']);
      await c.next('documentMarking', (m) => m.documentId === 501);
      const told = async (documentId: number) =>
        (
          await app.db.query<{ user_id: string }>(
            `SELECT user_id FROM messenger_event WHERE channel = 'documentMarking' AND (body->>'documentId')::int = $1`,
            [documentId],
          )
        ).rows
          .map((r) => r.user_id)
          .sort();
      // Bob, named twice, is told once.
      expect(await told(501)).toEqual([bob.id, carol.id].sort());

      // Each refusal is an ERROR frame (the socket then closes), and nobody is told anything.
      const refused = async (sender: { id: string; token: string }, body: unknown, why: RegExp) => {
        const socket = await connectLive(url, sender.token, sender.id);
        open.push(socket);
        await expect(socket.send('/app/announcementDocumentMarking', body)).rejects.toThrow(why);
        await waitUntil(
          () => !socket.client.connected || socket.socket().readyState !== WebSocket.OPEN,
          'the socket to close',
        );
      };
      await refused(curator, { userIds: [Number(bob.id)], documentId: 502 }, /no permission/);
      await refused(
        head,
        { userIds: [Number(bob.id), Number(citizen.id)], documentId: 503 },
        /\/userIds\/1: Choose a staff member/,
      );
      await refused(
        head,
        { userIds: [Number(bob.id), 999_999], documentId: 504 },
        /\/userIds\/1: Choose a staff member/,
      );
      await refused(head, { userIds: [Number(bob.id)] }, /\/documentId: Mandatory/);
      await refused(
        head,
        { userIds: [Number(bob.id)], documentId: 505, html: '<b>' },
        /\/html: This field is not allowed/,
      );
      await refused(
        head,
        { userIds: Array.from({ length: 201 }, (_, i) => i + 1), documentId: 506 },
        /\/userIds: At most 200/,
      );
      await refused(head, { userIds: [String(bob.id)], documentId: 507 }, /\/userIds\/0/);
      await refused(head, { userIds: [], documentId: 508 }, /\/userIds/);
      await refused(head, '[1, 2]', /JSON object/);
      for (const documentId of [502, 503, 504, 505, 506, 507, 508]) expect(await told(documentId)).toEqual([]);
      expect((b.received.get('documentMarking') ?? []).map((m) => m.documentId)).toEqual([501]);
    });

    it('refuses a bad token, a missing token and a foreign origin', async () => {
      await expect(connectLive(url, 'not-a-token', alice.id)).rejects.toThrow(/invalid or expired token/);
      await expect(connectLive(url, undefined, alice.id)).rejects.toThrow(/invalid or expired token/);
      await expect(connectLive(url, forgedToken(alice.token), alice.id)).rejects.toThrow(/invalid or expired token/);
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(url, ['v12.stomp'], { origin: 'https://evil.example' });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
        ws.on('error', () => undefined);
      });
      expect(status).toBe(403);
      const elsewhere = await new Promise<number>((resolve) => {
        const ws = new WebSocket(url.replace('/gs-guide-websocket', '/somewhere-else'), ['v12.stomp']);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
        ws.on('error', () => undefined);
      });
      expect(elsewhere).toBe(404);
      const own = await connectLive(url, alice.token, alice.id, {
        origin: url.replace('ws://', 'http://').replace('/gs-guide-websocket', ''),
      });
      open.push(own);
    });

    it('refuses the socket to a user whose staff card says canLogin = false, as sign-in does', async () => {
      const dave = await createStaff(app, 'dave');
      const cardEntity = app.definitions.entities.get(access.employeeEntity)!;
      const userField = access.employeeUserField.slice(1);
      // Any unit will do: the seeded ones exist from the first start.
      const unitEntity = app.definitions.entities.get(
        (cardEntity.schema.properties!.departmentId as { entityRef: { entity: string } }).entityRef.entity,
      )!;
      const unit = (
        await app.inject({
          method: 'POST',
          url: `/api${unitEntity.manifest.base}/list-search`,
          payload: { itemsPerPage: 1 },
        })
      ).json().list[0].id as number;
      const card = await app.inject({
        method: 'POST',
        url: `/api${cardEntity.manifest.base}/create`,
        payload: {
          lastName: 'Davronov',
          firstName: 'Dilshod',
          departmentId: unit,
          canRegister: false,
          canLogin: false,
          [userField]: Number(dave.id),
        },
      });
      expect(card.statusCode, card.body).toBe(200);
      // Actors are remembered for a few seconds; move the clock past that instead of sleeping.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
      try {
        // Not a bad token: the web app must not renew its session for it (src/client/live.ts).
        await expect(connectLive(url, dave.token, dave.id)).rejects.toThrow(/session ended(\\c|:) access withdrawn/);
      } finally {
        vi.useRealTimers();
      }
    });

    it('replays what a client missed while its socket was down', async () => {
      await closeAll();
      const b = await live(bob, ['msg']);
      const a = await live(alice, []);
      await a.send('/app/sendMessage', { receiverId: Number(bob.id), message: 'before the drop' });
      await b.next('msg', (m) => m.message === 'before the drop');
      // The network goes away without a goodbye.
      const sessionsOfBob = () => [...app.stompSessions].filter((s) => s.user?.id === bob.id).length;
      const before = sessionsOfBob();
      b.socket().terminate();
      await waitUntil(() => sessionsOfBob() === before - 1, 'the server to notice');
      for (const text of ['missed 1', 'missed 2', 'missed 3'])
        await a.send('/app/sendMessage', { receiverId: Number(bob.id), message: text });
      const again = await live(bob, ['msg']);
      for (const text of ['missed 1', 'missed 2', 'missed 3']) await again.next('msg', (m) => m.message === text);
      const texts = again.received.get('msg')!.map((m) => m.message);
      expect(texts.filter((t) => String(t).startsWith('missed'))).toEqual(['missed 1', 'missed 2', 'missed 3']);
      // Delivered once: a third connection gets nothing again.
      const third = await live(bob, ['msg']);
      await third.send('/app/register', {});
      expect((third.received.get('msg') ?? []).filter((m) => String(m.message).startsWith('missed'))).toEqual([]);
    });

    it('with client acknowledgements, an event received but not acknowledged comes again', async () => {
      await closeAll();
      const a = await live(alice, []);
      const b = await connectLive(url, bob.token, bob.id);
      open.push(b);
      await b.subscribe('msg', bob.id, { ack: 'client-individual' });
      await a.send('/app/sendMessage', { receiverId: Number(bob.id), message: 'ack me' });
      await b.next('msg', (m) => m.message === 'ack me');
      const sessionsOfBob = () => [...app.stompSessions].filter((s) => s.user?.id === bob.id).length;
      const before = sessionsOfBob();
      b.socket().terminate();
      await waitUntil(() => sessionsOfBob() === before - 1, 'the server to notice');
      const b2 = await connectLive(url, bob.token, bob.id);
      open.push(b2);
      await b2.subscribe('msg', bob.id, { ack: 'client-individual' });
      await b2.next('msg', (m) => m.message === 'ack me');
      b2.frames.filter((f) => JSON.parse(f.body).message === 'ack me').forEach((f) => f.ack());
      await b2.send('/app/register', {});
      await waitUntil(
        async () =>
          (
            await app.db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM messenger_event WHERE body->>'message' = 'ack me' AND user_id = $1 AND delivered_at IS NULL`,
              [bob.id],
            )
          ).rows[0]!.n === 0,
        'the acknowledgement',
      );
    });

    it('in an acknowledged subscription every MESSAGE carries an ack id, state (counters, replies) too, and its ACK is taken', async () => {
      const b = await connectLive(url, bob.token, bob.id);
      open.push(b);
      await b.subscribe('notificationMsg', bob.id, { ack: 'client-individual' });
      await b.subscribe('unreadMessages', bob.id, { ack: 'client-individual' });
      await b.next('notificationMsg');
      await b.send('/app/register', {});
      await b.next('unreadMessages');
      const state = b.frames.filter((f) => /\/(notificationMsg|unreadMessages)$/.test(f.headers.destination ?? ''));
      expect(state.map((f) => f.headers.destination!.split('/').at(-1))).toEqual(['notificationMsg', 'unreadMessages']);
      for (const f of state) {
        expect(f.headers.ack).toBeTruthy();
        f.ack();
      }
      // Taken without an ERROR: the next request is answered on the same connection.
      await b.send('/app/register', {});
      expect(b.errors).toEqual([]);
      expect(b.client.connected).toBe(true);
    });

    it('answers unread counts on /app/allUnreadMessages for oneself only, and rejects bad input', async () => {
      const b = await live(bob, ['unreadMessages']);
      await b.send('/app/allUnreadMessages', bob.id);
      const counts = await b.next('unreadMessages');
      expect(counts.total).toBeGreaterThan(0);
      const rest = (await as(bob, 'GET', '/api/unread-messages')).json();
      expect(rest.total).toBe(counts.total);
      await expect(b.send('/app/allUnreadMessages', alice.id)).rejects.toThrow(/another user/);
      const a = await live(alice, []);
      await expect(a.send('/app/sendMessage', { receiverId: Number(bob.id), message: '   ' })).rejects.toThrow(
        /message/i,
      );
    });
  });
}
