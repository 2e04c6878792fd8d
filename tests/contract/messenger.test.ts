import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backends } from '../support/databases.ts';
import { startTestApp } from '../support/app.ts';
import { createStaff } from '../support/stomp.ts';
import { EXE, PDF, PNG } from '../support/multipart.ts';

/** A multipart form with text fields and at most one file. */
const form = (fields: Record<string, string | number>, file?: { name: string; content: Buffer; type?: string }) => {
  const boundary = `----msg${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`messenger REST on ${backend.name}`, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let alice: { id: string; token: string };
    let bob: { id: string; token: string };
    let carol: { id: string; token: string };
    let citizen: { id: string; token: string };
    const as = (
      user: { token: string },
      method: 'GET' | 'POST' | 'DELETE',
      url: string,
      payload?: unknown,
      headers: Record<string, string> = {},
    ) =>
      app.inject({
        method,
        url,
        payload: payload as never,
        headers: { authorization: `Bearer ${user.token}`, 'accept-language': 'en', ...headers },
      });
    const send = (
      user: { token: string },
      url: string,
      fields: Record<string, string | number>,
      file?: Parameters<typeof form>[1],
    ) => {
      const f = form(fields, file);
      return as(user, 'POST', url, f.payload, f.headers);
    };

    beforeAll(async () => {
      ({ app, close } = await startTestApp(backend.name));
      alice = await createStaff(app, 'alice', ['employee'], { firstName: 'Alisher', lastName: 'Karimov' });
      bob = await createStaff(app, 'bob', ['employee'], { firstName: 'Bobur', lastName: 'Toshmatov' });
      carol = await createStaff(app, 'carol', ['employee'], { firstName: 'Kamola', lastName: 'Rahimova' });
      citizen = await createStaff(app, 'citizen1', ['citizen'], { isOuter: true });
    });
    afterAll(async () => close?.());

    it('lists staff contacts with search, never outer users, and only to staff', async () => {
      const all = (await as(alice, 'POST', '/api/employee/get-by-chat', { page: 0, itemsPerPage: 50 })).json();
      const names = all.list.map((c: { lastName: string }) => c.lastName);
      expect(names).toEqual(expect.arrayContaining(['Toshmatov', 'Rahimova']));
      expect(
        all.list.some(
          (c: { employeeId: number }) => String(c.employeeId) === alice.id || String(c.employeeId) === citizen.id,
        ),
      ).toBe(false);
      const found = (await as(alice, 'POST', '/api/employee/get-by-chat?search=rahim', {})).json();
      expect(found.list.map((c: { employeeId: number }) => String(c.employeeId))).toEqual([carol.id]);
      expect((await as(citizen, 'POST', '/api/employee/get-by-chat', {})).statusCode).toBe(403);
      expect((await as(alice, 'POST', `/api/chat/create/${citizen.id}`)).statusCode).toBe(404);
      expect((await as(alice, 'POST', `/api/chat/create/${alice.id}`)).statusCode).toBe(400);
    });

    it('sends with a file (multipart), pages back by beforeId, searches, and keeps attachments to the chat', async () => {
      const chatId = (await as(alice, 'POST', `/api/chat/create/${bob.id}`)).json().chatId as number;
      expect((await as(bob, 'POST', `/api/chat/create/${alice.id}`)).json().chatId).toBe(chatId);
      const withFile = await send(
        alice,
        '/api/chat-message/sendMessage',
        { chatId, ownerId: alice.id, message: 'Hisobot ilova qilindi' },
        { name: 'hisobot.pdf', content: PDF, type: 'application/pdf' },
      );
      expect(withFile.statusCode, withFile.body).toBe(200);
      expect(withFile.json().file).toMatchObject({ name: 'hisobot.pdf', mime: 'application/pdf', size: PDF.length });
      const fileId = withFile.json().file.id as string;
      const download = await as(bob, 'GET', `/api/chat-message/file/${fileId}`);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(PDF)).toBe(true);
      expect((await as(carol, 'GET', `/api/chat-message/file/${fileId}`)).statusCode).toBe(404);

      const refused = await send(
        alice,
        '/api/chat-message/sendMessage',
        { chatId, message: 'dastur' },
        { name: 'setup.exe', content: EXE },
      );
      expect(refused.statusCode).toBe(415);
      const empty = await send(alice, '/api/chat-message/sendMessage', { chatId, message: '  ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fieldErrors['/message']).toBe('Write a message or attach a file');
      expect(
        (await send(alice, '/api/chat-message/sendMessage', { chatId, message: 'x', ownerId: bob.id })).statusCode,
      ).toBe(403);
      expect((await send(carol, '/api/chat-message/sendMessage', { chatId, message: 'intrusion' })).statusCode).toBe(
        404,
      );

      for (let i = 1; i <= 45; i++)
        await send(i % 2 ? alice : bob, '/api/chat-message/sendMessage', { chatId, message: `xabar ${i}` });
      const first = (
        await as(bob, 'POST', `/api/chat-message/get-by-chatId/${chatId}`, { page: 0, itemsPerPage: 20 })
      ).json();
      expect(first.total).toBe(46);
      expect(first.list.map((m: { message: string }) => m.message).at(-1)).toBe('xabar 45');
      expect(first.list.map((m: { message: string }) => m.message)[0]).toBe('xabar 26');
      const older = (
        await as(bob, 'POST', `/api/chat-message/get-by-chatId/${chatId}`, {
          itemsPerPage: 20,
          beforeId: first.list[0].id,
        })
      ).json();
      expect(older.list.map((m: { message: string }) => m.message)).toEqual(
        Array.from({ length: 20 }, (_, i) => `xabar ${i + 6}`),
      );
      const searched = (await as(bob, 'POST', `/api/chat-message/get-by-chatId/${chatId}?search=ilova`, {})).json();
      expect(searched.list.map((m: { message: string }) => m.message)).toEqual(['Hisobot ilova qilindi']);

      const chats = (await as(bob, 'POST', '/api/chat/list', { page: 0, itemsPerPage: 10 })).json();
      expect(chats.list[0]).toMatchObject({ chatId, lastMessage: 'xabar 45', unreadCount: 24 });
      expect((await as(bob, 'GET', '/api/unread-messages')).json()).toMatchObject({
        total: 24,
        chats: [{ chatId, count: 24 }],
      });
      expect((await as(bob, 'GET', '/api/notification/unread-messages')).json()).toBe(24);
      await as(bob, 'POST', '/api/chat-message/make-read', { chatId });
      expect((await as(bob, 'GET', '/api/unread-messages')).json().total).toBe(0);
      const mine = (await as(alice, 'POST', `/api/chat-message/get-by-chatId/${chatId}`, { itemsPerPage: 5 })).json();
      expect(
        mine.list
          .filter((m: { ownerId: number }) => String(m.ownerId) === alice.id)
          .every((m: { isRead: string }) => m.isRead === 'READ'),
      ).toBe(true);
    });

    it('replies and forwards only what the sender may read', async () => {
      const chatId = (await as(alice, 'POST', `/api/chat/create/${bob.id}`)).json().chatId as number;
      const original = (await send(bob, '/api/chat-message/sendMessage', { chatId, message: 'Asl xabar' })).json();
      const reply = await send(alice, '/api/chat-message/reply-message', {
        chatId,
        id: original.id,
        message: 'Javobim',
      });
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json().replyTo).toMatchObject({ id: original.id, message: 'Asl xabar' });
      const forwarded = await as(alice, 'POST', '/api/chat-message/forward-message', {
        id: original.id,
        receiverId: Number(carol.id),
      });
      expect(forwarded.statusCode, forwarded.body).toBe(200);
      expect(forwarded.json()).toMatchObject({
        message: 'Asl xabar',
        forwardedFrom: original.id,
        ownerId: Number(alice.id),
      });
      // Carol cannot forward what she cannot read.
      expect(
        (
          await as(carol, 'POST', '/api/chat-message/forward-message', {
            id: reply.json().id,
            receiverId: Number(bob.id),
          })
        ).statusCode,
      ).toBe(404);
    });

    it('forwards a file-only message with its file, which the new chat may then download and no one else', async () => {
      const chatId = (await as(alice, 'POST', `/api/chat/create/${bob.id}`)).json().chatId as number;
      const original = await send(
        bob,
        '/api/chat-message/sendMessage',
        { chatId, message: '' },
        { name: 'dalolatnoma.pdf', content: PDF, type: 'application/pdf' },
      );
      expect(original.statusCode, original.body).toBe(200);
      const fileId = original.json().file.id as string;
      expect((await as(carol, 'GET', `/api/chat-message/file/${fileId}`)).statusCode).toBe(404);
      const forwarded = await as(alice, 'POST', '/api/chat-message/forward-message', {
        id: original.json().id,
        receiverId: Number(carol.id),
      });
      expect(forwarded.statusCode, forwarded.body).toBe(200);
      expect(forwarded.json()).toMatchObject({
        message: '',
        forwardedFrom: original.json().id,
        ownerId: Number(alice.id),
        file: { id: fileId, name: 'dalolatnoma.pdf', size: PDF.length },
      });
      const download = await as(carol, 'GET', `/api/chat-message/file/${fileId}`);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(PDF)).toBe(true);
      // The sender deleting the original does not take the file from the chat it was forwarded to.
      expect((await as(bob, 'DELETE', `/api/chat-message/delete/${original.json().id}`)).statusCode).toBe(200);
      expect((await as(carol, 'GET', `/api/chat-message/file/${fileId}`)).statusCode).toBe(200);
      expect((await as(citizen, 'GET', `/api/chat-message/file/${fileId}`)).statusCode).toBe(403);
    });

    it('searches messages case-insensitively in Cyrillic and Uzbek Latin, through the trigram index', async () => {
      const chatId = (await as(bob, 'POST', `/api/chat/create/${carol.id}`)).json().chatId as number;
      for (const message of [
        'ОТЧЁТ за квартал готов',
        'Hisobot: Oʻzbekiston boʻyicha',
        'Ҳисобот тайёр',
        'ничего лишнего',
        '100% tayyor_emas',
      ]) {
        expect((await send(bob, '/api/chat-message/sendMessage', { chatId, message })).statusCode).toBe(200);
      }
      const found = async (search: string) =>
        (
          (
            await as(
              carol,
              'POST',
              `/api/chat-message/get-by-chatId/${chatId}?search=${encodeURIComponent(search)}`,
              {},
            )
          ).json().list as Array<{ message: string }>
        ).map((m) => m.message);
      expect(await found('отчёт')).toEqual(['ОТЧЁТ за квартал готов']);
      expect(await found('КВАРТАЛ')).toEqual(['ОТЧЁТ за квартал готов']);
      expect(await found('ҲИСОБОТ')).toEqual(['Ҳисобот тайёр']);
      expect(await found("o'zbekiston")).toEqual(['Hisobot: Oʻzbekiston boʻyicha']);
      expect(await found('HISOBOT')).toEqual(['Hisobot: Oʻzbekiston boʻyicha']);
      expect(await found('%')).toEqual(['100% tayyor_emas']);
      expect(await found('r_e')).toEqual(['100% tayyor_emas']);
      expect(await found('квартал лишнего')).toEqual([]);
      // An edited message is found by its new text only.
      const sent = (await send(bob, '/api/chat-message/sendMessage', { chatId, message: 'eski matn' })).json();
      expect((await as(bob, 'POST', '/api/chat-message/edit', { id: sent.id, message: 'Янги МАТН' })).statusCode).toBe(
        200,
      );
      expect(await found('eski')).toEqual([]);
      expect(await found('янги матн')).toEqual(['Янги МАТН']);
      // The planner can answer the search condition from the trigram index (seq scans priced out).
      const plan = await app.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        return (
          await tx.query<{ 'QUERY PLAN': string }>(
            "EXPLAIN SELECT id FROM chat_message WHERE search_text LIKE '%hisobot%'",
          )
        ).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      });
      expect(plan).toContain('ix_chat_message_search');
    });

    it('shows staff their colleagues’ photos: one’s own set through the profile upload', async () => {
      // The upload routes are the organisation's (tests/contract/org.test.ts covers them and
      // the {id} variant); here: the photo reaches other staff through the messenger.
      const own = form({}, { name: 'me.png', content: PNG, type: 'image/png' });
      const mine = await as(bob, 'POST', '/api/file-entity/save/employee-photo/for-profile', own.payload, own.headers);
      expect(mine.statusCode, mine.body).toBe(200);
      const seen = await as(alice, 'GET', `/api/employee/photo/${bob.id}`);
      expect(seen.statusCode).toBe(200);
      expect(seen.rawPayload.equals(PNG)).toBe(true);
      const contacts = (await as(alice, 'POST', '/api/employee/get-by-chat?search=toshmatov', {})).json();
      expect(contacts.list[0].uploadPath).toBe(`/api/employee/photo/${bob.id}`);
      const pdf = form({}, { name: 'x.pdf', content: PDF, type: 'application/pdf' });
      expect(
        (await as(bob, 'POST', '/api/file-entity/save/employee-photo/for-profile', pdf.payload, pdf.headers))
          .statusCode,
      ).toBe(415);
    });

    it('manages group chats: create, rename, photo, members, list with search, delete', async () => {
      const created = await as(alice, 'POST', '/api/groupChat/create', {
        name: 'Tahlil guruhi',
        memberIds: [Number(bob.id)],
      });
      expect(created.statusCode, created.body).toBe(200);
      const id = created.json().id as number;
      expect(
        (await as(alice, 'POST', '/api/groupChat/create', { name: 'x', memberIds: [Number(citizen.id)] })).statusCode,
      ).toBe(404);
      expect((await as(alice, 'POST', '/api/groupChat/create', { name: '   ' })).statusCode).toBe(400);

      expect((await as(bob, 'POST', '/api/groupChat/edit', { id, name: 'Bob’s' })).statusCode).toBe(403);
      expect((await as(alice, 'POST', '/api/groupChat/edit', { id, name: 'Bozor tahlili' })).json().name).toBe(
        'Bozor tahlili',
      );
      const photo = await send(
        alice,
        '/api/groupChat/uploadPhoto',
        { groupChatId: id },
        { name: 'logo.png', content: PNG, type: 'image/png' },
      );
      expect(photo.statusCode, photo.body).toBe(200);
      expect(photo.json().photo).toBe(`/api/groupChat/photo/${id}`);
      const img = await as(bob, 'GET', `/api/groupChat/photo/${id}`);
      expect(img.headers['content-type']).toBe('image/png');
      expect((await as(carol, 'GET', `/api/groupChat/photo/${id}`)).statusCode).toBe(404);

      expect(
        (await as(alice, 'POST', `/api/groupChat/add-members/${id}`, { memberIds: [Number(carol.id)] })).json().count,
      ).toBe(3);
      const members = (await as(carol, 'POST', `/api/groupChat/members/${id}?search=tosh`, {})).json();
      expect(members.list.map((m: { employeeId: number }) => String(m.employeeId))).toEqual([bob.id]);
      await send(carol, '/api/groupChat/chat-message/sendMessage', {
        groupChatId: id,
        message: 'Men ham shu yerdaman',
      });
      const listed = (await as(bob, 'POST', '/api/groupChat/list?search=bozor', {})).json();
      expect(listed.list).toEqual([
        expect.objectContaining({
          id,
          name: 'Bozor tahlili',
          count: 3,
          unreadCount: 1,
          lastMessage: 'Men ham shu yerdaman',
        }),
      ]);

      expect(
        (await as(alice, 'POST', `/api/groupChat/delete-members/${id}`, { memberIds: [Number(carol.id)] })).json()
          .count,
      ).toBe(2);
      expect((await as(carol, 'POST', `/api/groupChat/get-by-chatId/${id}`, {})).statusCode).toBe(404);
      // A former member can no longer write there, and nothing of the attempt is stored.
      const stored = async () =>
        Number(
          (
            await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM chat_message WHERE group_chat_id = $1', [
              id,
            ])
          ).rows[0]!.n,
        );
      const before = await stored();
      expect(
        (
          await send(carol, '/api/groupChat/chat-message/sendMessage', {
            groupChatId: id,
            message: 'hali ham shu yerdamanmi?',
          })
        ).statusCode,
      ).toBe(404);
      expect(await stored()).toBe(before);
      const groupMessage = (
        await send(bob, '/api/groupChat/chat-message/sendMessage', { groupChatId: id, message: 'o‘chadi' })
      ).json();
      expect((await as(alice, 'DELETE', `/api/groupChat/delete/${groupMessage.id}`)).statusCode).toBe(403);
      expect((await as(bob, 'DELETE', `/api/groupChat/delete/${groupMessage.id}`)).statusCode).toBe(200);

      expect((await as(bob, 'POST', '/api/groupChat/delete', { id })).statusCode).toBe(403);
      expect((await as(alice, 'POST', '/api/groupChat/delete', { id })).statusCode).toBe(200);
      expect(
        (await as(bob, 'POST', '/api/groupChat/list', {})).json().list.some((g: { id: number }) => g.id === id),
      ).toBe(false);
    });
  });
}
