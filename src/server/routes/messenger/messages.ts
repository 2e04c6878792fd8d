import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../../errors.ts';
import { MESSENGER_FILE_KIND, readMessengerForm } from '../../messenger/upload.ts';
import { MESSENGER_SUBJECT } from '../../messenger/counters.ts';
import { SECURITY_ROLE } from '../../messenger/session.ts';
import { editBody, formBody, idParam, paging, replies, searchQuery } from '../../messenger/route-schemas.ts';
import type { MessengerKit, Paging } from './kit.ts';
import { hasRoleSql } from '../../auth/user-directory.ts';

/**
 * Messages of direct and group chats: pages and search, send (with a file), reply, forward,
 * edit, delete, read state; the unread and header counters; the security role's notice of a
 * person at the door; attachments, to the people of their chat.
 */
const messages: FastifyPluginAsync<MessengerKit> = async (
  app,
  { m, userTable, me, staffWhere, int, page, required, withFile, form },
) => {
  app.post<{ Params: { id: number }; Querystring: { search?: string }; Body: Paging }>(
    '/api/chat-message/get-by-chatId/:id',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Messages of a direct chat: newest page first (page or beforeId), each page oldest to newest',
        params: idParam,
        querystring: searchQuery,
        body: paging,
        response: replies.messages,
      },
    },
    async (request) => m.messages(me(request), { chatId: request.params.id }, page(request)),
  );
  app.post<{ Params: { id: number }; Querystring: { search?: string }; Body: Paging }>(
    '/api/groupChat/get-by-chatId/:id',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Messages of a group chat (paging as for direct chats)',
        params: idParam,
        querystring: searchQuery,
        body: paging,
        response: replies.messages,
      },
    },
    async (request) => m.messages(me(request), { groupChatId: request.params.id }, page(request)),
  );

  const sendFrom = async (request: FastifyRequest, group: boolean) => {
    const id = me(request);
    const { fields, fileId } = await readMessengerForm(app, request, id);
    return withFile(fileId, async () => {
      // ownerId is the sender in the spec's form; it must be the caller.
      if (fields.ownerId && fields.ownerId !== id) throw new ApiError(403, 'errors.forbidden');
      const replyTo = int(fields.id ?? fields.replyTo, '/id');
      if (!group)
        return m.send(id, {
          chatId: int(fields.chatId, '/chatId'),
          receiverId: fields.receiverId,
          message: fields.message ?? '',
          fileId,
          replyTo,
        });
      const groupChatId = int(fields.groupChatId, '/groupChatId');
      if (groupChatId === undefined) throw required('/groupChatId');
      return m.send(id, { groupChatId, message: fields.message ?? '', fileId, replyTo });
    });
  };
  const sender = { ownerId: 'The sender: must be the caller', message: 'The text' };
  app.post(
    '/api/chat-message/sendMessage',
    {
      ...form,
      schema: {
        tags: ['Messenger'],
        summary: 'Send to a direct chat (multipart: file, ownerId, chatId or receiverId, message)',
        body: formBody({ ...sender, chatId: 'The direct chat', receiverId: 'Or the employee to write to' }),
        response: replies.message,
      },
    },
    (request) => sendFrom(request, false),
  );
  app.post(
    '/api/groupChat/chat-message/sendMessage',
    {
      ...form,
      schema: {
        tags: ['Messenger'],
        summary: 'Send to a group chat (multipart: file, ownerId, groupChatId, message)',
        body: formBody({ ...sender, groupChatId: 'The group chat' }, ['groupChatId']),
        response: replies.message,
      },
    },
    (request) => sendFrom(request, true),
  );
  app.post(
    '/api/chat-message/reply-message',
    {
      ...form,
      schema: {
        tags: ['Messenger'],
        summary: 'Reply to message `id` (multipart: chatId or groupChatId, id, message, file)',
        body: formBody(
          {
            id: 'The message replied to',
            chatId: 'The direct chat',
            groupChatId: 'Or the group chat',
            message: 'The text',
          },
          ['id'],
        ),
        response: replies.message,
      },
    },
    async (request) => {
      const fields = !request.isMultipart() ? ((request.body ?? {}) as Record<string, unknown>) : undefined;
      if (fields && !fields.id)
        throw new ApiError(400, 'errors.invalidInput', {
          fieldErrors: [{ pointer: '/id', key: 'validation.required', params: {} }],
        });
      const id = me(request);
      const form = await readMessengerForm(app, request, id);
      return withFile(form.fileId, async () => {
        const replyTo = int(form.fields.id, '/id');
        if (replyTo === undefined) throw required('/id');
        const groupChatId = int(form.fields.groupChatId, '/groupChatId');
        return m.send(
          id,
          groupChatId
            ? { groupChatId, message: form.fields.message ?? '', fileId: form.fileId, replyTo }
            : {
                chatId: int(form.fields.chatId, '/chatId'),
                message: form.fields.message ?? '',
                fileId: form.fileId,
                replyTo,
              },
        );
      });
    },
  );

  app.post<{ Body: { id: number; chatId?: number; groupChatId?: number; receiverId?: number } }>(
    '/api/chat-message/forward-message',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Forward message `id` to a chat, a group chat or an employee',
        body: {
          type: 'object',
          required: ['id'],
          additionalProperties: false,
          properties: {
            id: { type: 'integer', minimum: 1 },
            chatId: { type: 'integer', minimum: 1 },
            groupChatId: { type: 'integer', minimum: 1 },
            receiverId: { type: 'integer', minimum: 1 },
          },
        },
        response: replies.message,
      },
    },
    async (request) => {
      const id = me(request);
      const original = await m.loadMessage(app.db, request.body.id, id);
      if (!original) throw notFound();
      // Only a message one can read can be forwarded.
      if (original.chatId !== null) await m.chatOf(app.db, original.chatId, id);
      else await m.membersOf(app.db, original.groupChatId!, id);
      const { chatId, groupChatId, receiverId } = request.body;
      // The attachment goes along: the new message carries the same file (stored once), which the
      // people of every chat holding it may download.
      const fileId = original.file?.id;
      return m.send(
        id,
        groupChatId
          ? { groupChatId, message: original.message, fileId, forwardedFrom: original.id }
          : {
              chatId,
              receiverId: receiverId === undefined ? undefined : String(receiverId),
              message: original.message,
              fileId,
              forwardedFrom: original.id,
            },
      );
    },
  );

  app.post<{ Body: { id: number; message: string } }>(
    '/api/chat-message/edit',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Edit own message (sets `edited`)',
        body: editBody,
        response: replies.message,
      },
    },
    async (request) => m.edit(me(request), request.body.id, request.body.message),
  );
  app.post<{ Body: { id: number; message: string } }>(
    '/api/groupChat/chat-message/edit',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Edit own group message (sets `edited`)',
        body: editBody,
        response: replies.message,
      },
    },
    async (request) => m.edit(me(request), request.body.id, request.body.message),
  );
  app.delete<{ Params: { id: number } }>(
    '/api/chat-message/delete/:id',
    { schema: { tags: ['Messenger'], summary: 'Delete own message', params: idParam, response: replies.deleted } },
    async (request) => {
      await m.remove(me(request), request.params.id);
      return { deleted: true };
    },
  );
  app.delete<{ Params: { id: number } }>(
    '/api/groupChat/delete/:id',
    {
      schema: { tags: ['Messenger'], summary: 'Delete own group message', params: idParam, response: replies.deleted },
    },
    async (request) => {
      await m.remove(me(request), request.params.id);
      return { deleted: true };
    },
  );

  app.post<{ Body: { chatId?: number; groupChatId?: number } }>(
    '/api/chat-message/make-read',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Mark every unread message of a chat as READ (authors are told on makeRead)',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { chatId: { type: 'integer', minimum: 1 }, groupChatId: { type: 'integer', minimum: 1 } },
        },
        response: replies.read,
      },
    },
    async (request) => m.markRead(me(request), request.body),
  );
  app.get(
    '/api/unread-messages',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Unread messages: total, per chat and per group chat',
        response: replies.unread,
      },
    },
    async (request) => {
      // Counter failures show 0 in the client (spec §8); a visitor simply has none.
      if (!request.actor?.id || request.actor.isOuter || !request.actor.ability.can('read', MESSENGER_SUBJECT))
        return { total: 0, chats: [], groupChats: [] };
      return m.unreadCounts(request.actor.id);
    },
  );
  app.post<{ Body: { personName: string; deviceName: string; photo?: string; at?: string } }>(
    '/api/incoming-person',
    {
      schema: {
        tags: ['Messenger'],
        summary:
          'An entrance event (turnstile, camera): told live to every user of the security role on incomingPerson. deviceName "enter" is entering, anything else exiting. Needs "manage all" (the integration account).',
        body: {
          type: 'object',
          required: ['personName', 'deviceName'],
          additionalProperties: false,
          properties: {
            personName: { type: 'string', minLength: 1, maxLength: 300 },
            deviceName: { type: 'string', minLength: 1, maxLength: 100 },
            photo: { type: 'string', maxLength: 500 },
            at: { type: 'string', format: 'date-time' },
          },
        },
        response: replies.notified,
      },
    },
    async (request) => {
      if (!request.actor?.id) throw new ApiError(401, 'errors.sessionExpired');
      if (!request.actor.ability.can('manage', 'all')) throw new ApiError(403, 'errors.forbidden');
      const { rows } = await app.db.query<{ id: number }>(
        `SELECT id FROM ${userTable} u WHERE ${hasRoleSql('u', '$1')} AND ${staffWhere}`,
        [SECURITY_ROLE],
      );
      const event = {
        ...request.body,
        direction: request.body.deviceName === 'enter' ? 'ENTER' : 'EXIT',
        at: request.body.at ?? new Date().toISOString(),
      };
      await m.emit(
        rows.map((r) => String(r.id)),
        'incomingPerson',
        event,
      );
      return { notified: rows.length };
    },
  );
  app.get(
    '/api/letter/get-all-count',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'The header counters (schemas/_counters/letter-counters.json); also pushed live on notificationMsg',
        response: replies.counters,
      },
    },
    async (request) => {
      const id = me(request);
      return m.counters.of(id);
    },
  );
  app.get(
    '/api/notification/unread-messages',
    { schema: { tags: ['Messenger'], summary: 'The number of unread messages', response: replies.unreadTotal } },
    async (request) => {
      if (!request.actor?.id || request.actor.isOuter || !request.actor.ability.can('read', MESSENGER_SUBJECT))
        return 0;
      return (await m.unreadCounts(request.actor.id)).total;
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/chat-message/file/:id',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'An attachment, to the people of its chat',
        params: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } },
        response: replies.file,
      },
    },
    async (request, reply) => {
      const id = me(request);
      // Readable by its uploader, and by the people of any chat or group holding a message with it
      // (a forwarded message shares its original's file).
      const { rows } = await app.db.query<{ name: string; mime: string; size: number; readable: boolean }>(
        `SELECT f.name, f.mime, f.size, f.owner = $3 OR EXISTS (
          SELECT 1 FROM chat_message c LEFT JOIN chat ch ON ch.id = c.chat_id
           WHERE c.file_id = f.id AND (ch.user_a = $3 OR ch.user_b = $3
             OR EXISTS (SELECT 1 FROM group_member g WHERE g.group_chat_id = c.group_chat_id AND g.user_id = $3))) AS readable
         FROM file_entity f WHERE f.id = $1 AND f.kind = $2`,
        [request.params.id, MESSENGER_FILE_KIND, id],
      );
      const file = rows[0];
      if (!file?.readable) throw notFound();
      const stream = await app.fileStorage.get(request.params.id);
      if (!stream) throw notFound();
      return reply
        .header('content-type', file.mime)
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .send(stream);
    },
  );
};

export default messages;
