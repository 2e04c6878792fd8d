import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createStaff } from '../support/stomp.ts';

type User = { id: string; token: string };

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`staff dashboard sources on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let alice: User;
    let bob: User;
    let carol: User;
    let citizen: User;
    const as = (user: User | undefined, method: 'GET' | 'POST', url: string, payload?: unknown) =>
      app.inject({
        method,
        url,
        payload: payload as never,
        headers: { authorization: user ? `Bearer ${user.token}` : '', 'accept-language': 'en' },
      });

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      alice = await createStaff(app, 'alice', ['employee'], { firstName: 'Alisher', lastName: 'Karimov' });
      bob = await createStaff(app, 'bob', ['employee'], { firstName: 'Bobur', lastName: 'Toshmatov' });
      carol = await createStaff(app, 'carol', ['employee'], { firstName: 'Kamola', lastName: 'Rahimova' });
      citizen = await createStaff(app, 'citizen1', ['citizen'], { isOuter: true });
    });
    afterAll(async () => close?.());

    describe('chat unread summary', () => {
      const summary = async (user: User) => (await as(user, 'GET', '/api/unread-messages/summary')).json();

      it('answers one row per chat with unread messages, direct and group apart, most unread first', async () => {
        expect(await summary(bob)).toEqual({ list: [], total: 0 });
        const chatId = (await as(alice, 'POST', `/api/chat/create/${bob.id}`)).json().chatId as number;
        for (let i = 0; i < 3; i++)
          await as(alice, 'POST', '/api/chat-message/sendMessage', { chatId, message: `salom ${i}` });
        const group = (
          await as(carol, 'POST', '/api/groupChat/create', {
            name: 'Tahlil guruhi',
            memberIds: [Number(bob.id), Number(alice.id)],
          })
        ).json().id as number;
        for (let i = 0; i < 5; i++)
          await as(carol, 'POST', '/api/groupChat/chat-message/sendMessage', { groupChatId: group, message: `g ${i}` });
        const got = await summary(bob);
        expect(got.total).toBe(2);
        expect(got.list).toEqual([
          { name: 'Tahlil guruhi', chatId: null, groupChatId: group, direct: 0, group: 5, link: '/admin/messenger' },
          { name: 'Karimov Alisher', chatId, groupChatId: null, direct: 3, group: 0, link: '/admin/messenger' },
        ]);
        // The same counts as the messenger's own unread endpoint.
        const counts = (await as(bob, 'GET', '/api/unread-messages')).json();
        expect(got.list.reduce((s: number, r: { direct: number; group: number }) => s + r.direct + r.group, 0)).toBe(
          counts.total,
        );
        // Alice sent the direct messages: only the group's are unread for her.
        expect((await summary(alice)).list).toEqual([expect.objectContaining({ groupChatId: group, group: 5 })]);
        await as(bob, 'POST', '/api/chat-message/make-read', { chatId });
        expect((await summary(bob)).list.map((r: { groupChatId: number }) => r.groupChatId)).toEqual([group]);
      });

      it('is for staff only', async () => {
        expect((await as(citizen, 'GET', '/api/unread-messages/summary')).statusCode).toBe(403);
        expect((await as(undefined, 'GET', '/api/unread-messages/summary')).statusCode).toBe(401);
      });
    });
  });
}
