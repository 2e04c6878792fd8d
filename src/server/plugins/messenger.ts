import fp from 'fastify-plugin';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../errors.ts';
import { createEmbeddedBroker, type Broker } from '../messenger/broker.ts';
import { createRelayBroker } from '../messenger/relay.ts';
import { createMessengerStore, MESSENGER_TABLES, type MessengerStore } from '../messenger/store.ts';
import { MESSENGER_FILE_KIND, readMessengerForm } from '../messenger/upload.ts';
import { createCounters, MESSENGER_SUBJECT } from '../messenger/counters.ts';
import { SECURITY_ROLE } from '../messenger/session.ts';
import { systemActor } from '../auth/access.ts';
import { editBody, formBody, idList, idParam, membersBody, paging, replies, searchQuery } from '../messenger/route-schemas.ts';
import { handlerReadsBody } from '../reply-schemas.ts';

/** Chats, messages, receipts and live events. */
export const migrations = [MESSENGER_TABLES];


interface Paging { page: number; itemsPerPage: number; beforeId?: number }
const like = (s: string | undefined) => (s ? `%${s.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null);

/**
 * The staff messenger's REST side (spec §7 "Messenger"): contacts, direct and group chats,
 * messages with paging and search, send (with a file), edit, delete, reply, forward, read
 * state and unread counts. Every change is stored first, then published on the live socket
 * (plugins/stomp.ts) through the broker: embedded, or RabbitMQ with STOMP_RELAY_URL.
 * Users are the records of the access definition's user entity; only staff (signed-in, not
 * outer users) take part.
 */
export default fp(async (app) => {
  const access = app.definitions.access!;
  const userTable = app.tables.get(access.userEntity)!.table;
  const relayUrl = app.config.stompRelayUrl;
  const broker: Broker = relayUrl ? await createRelayBroker(relayUrl) : createEmbeddedBroker();
  const m = createMessengerStore(app.db, broker, { table: userTable });
  const counters = createCounters(app);
  app.decorate('messenger', Object.assign(m, { broker, counters }));
  app.addHook('onClose', async () => broker.close());
  // The routes live in their own scope with their own multipart parser (the files plugin's is encapsulated).
  await app.register(async (app) => {
  await app.register(multipart, { throwFileSizeLimit: true });

  /** The signed-in staff member making the request. */
  const me = (request: FastifyRequest): string => {
    const actor = request.actor;
    if (!actor?.id) throw new ApiError(401, 'errors.sessionExpired');
    if (actor.isOuter || !actor.ability.can('read', MESSENGER_SUBJECT)) throw new ApiError(403, 'errors.forbidden');
    return actor.id;
  };
  const staffWhere = `coalesce((u.data->>'isOuter')::boolean, true) = false AND coalesce((u.data->>'canLogin')::boolean, false)`;
  const photoPath = (alias: string) => `CASE WHEN ${alias}.data->'photo'->>0 IS NULL THEN NULL ELSE '/api/employee/photo/' || ${alias}.id END`;
  const int = (v: string | undefined, pointer: string): number | undefined => {
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 1) throw new ApiError(400, 'errors.invalidInput', { fieldErrors: [{ pointer, key: 'validation.integer', params: {} }] });
    return n;
  };

  // --- contacts and chats -------------------------------------------------------------------
  app.post<{ Querystring: { search?: string }; Body: Paging }>('/api/employee/get-by-chat', {
    schema: { tags: ['Messenger'], summary: 'Staff one may write to, with the direct chat if there is one', querystring: searchQuery, body: paging, response: replies.contacts },
  }, async (request) => {
    const id = me(request);
    const { page = 0, itemsPerPage = 20 } = request.body ?? {};
    const params = [id, like(request.query.search), itemsPerPage, page * itemsPerPage];
    const { rows } = await app.db.query<Record<string, unknown> & { total: number }>(
      `SELECT u.id AS "employeeId", u.data->>'firstName' AS "firstName", u.data->>'lastName' AS "lastName", ${photoPath('u')} AS "uploadPath",
              c.id AS "chatId", count(*) OVER ()::int AS total
         FROM ${userTable} u
         LEFT JOIN chat c ON (c.user_a = $1 AND c.user_b = u.id::text) OR (c.user_b = $1 AND c.user_a = u.id::text)
        WHERE ${staffWhere} AND u.id::text <> $1
          AND ($2::text IS NULL OR ${m.nameSql('u')} ILIKE $2 OR u.data->>'firstName' || ' ' || coalesce(u.data->>'lastName', '') ILIKE $2)
        ORDER BY u.data->>'lastName', u.data->>'firstName', u.id LIMIT $3 OFFSET $4`, params);
    return { list: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
  });

  app.post<{ Querystring: { search?: string }; Body: Paging }>('/api/chat/list', {
    schema: { tags: ['Messenger'], summary: 'My direct chats, the latest first, with unread counts', querystring: searchQuery, body: paging, response: replies.chats },
  }, async (request) => {
    const id = me(request);
    const { page = 0, itemsPerPage = 20 } = request.body ?? {};
    const { rows } = await app.db.query<Record<string, unknown> & { total: number }>(
      `SELECT c.id AS "chatId", u.id AS "employeeId", u.data->>'firstName' AS "firstName", u.data->>'lastName' AS "lastName", ${photoPath('u')} AS "uploadPath",
              last.message AS "lastMessage", to_char(last.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastMessageAt",
              (SELECT count(*)::int FROM message_receipt x JOIN chat_message mm ON mm.id = x.message_id WHERE mm.chat_id = c.id AND x.user_id = $1 AND x.read_at IS NULL) AS "unreadCount",
              count(*) OVER ()::int AS total
         FROM chat c
         JOIN ${userTable} u ON u.id::text = CASE WHEN c.user_a = $1 THEN c.user_b ELSE c.user_a END
         LEFT JOIN LATERAL (SELECT message, created_at FROM chat_message WHERE chat_id = c.id ORDER BY id DESC LIMIT 1) last ON true
        WHERE (c.user_a = $1 OR c.user_b = $1) AND ($2::text IS NULL OR ${m.nameSql('u')} ILIKE $2)
        ORDER BY coalesce(last.created_at, c.created_at) DESC, c.id DESC LIMIT $3 OFFSET $4`,
      [id, like(request.query.search), itemsPerPage, page * itemsPerPage]);
    return { list: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
  });

  app.post<{ Params: { id: number } }>('/api/chat/create/:id', {
    schema: { tags: ['Messenger'], summary: 'The direct chat with an employee (made on first use)', params: idParam, response: replies.chat },
  }, async (request) => ({ chatId: await m.openChat(me(request), String(request.params.id)) }));

  // --- messages -----------------------------------------------------------------------------
  const page = (request: FastifyRequest<{ Querystring: { search?: string }; Body: Paging }>) => ({
    page: request.body?.page ?? 0, itemsPerPage: request.body?.itemsPerPage ?? 20, search: request.query.search?.trim() || undefined, beforeId: request.body?.beforeId,
  });
  app.post<{ Params: { id: number }; Querystring: { search?: string }; Body: Paging }>('/api/chat-message/get-by-chatId/:id', {
    schema: { tags: ['Messenger'], summary: 'Messages of a direct chat: newest page first (page or beforeId), each page oldest to newest', params: idParam, querystring: searchQuery, body: paging, response: replies.messages },
  }, async (request) => m.messages(me(request), { chatId: request.params.id }, page(request)));
  app.post<{ Params: { id: number }; Querystring: { search?: string }; Body: Paging }>('/api/groupChat/get-by-chatId/:id', {
    schema: { tags: ['Messenger'], summary: 'Messages of a group chat (paging as for direct chats)', params: idParam, querystring: searchQuery, body: paging, response: replies.messages },
  }, async (request) => m.messages(me(request), { groupChatId: request.params.id }, page(request)));

  const required = (pointer: string) => new ApiError(400, 'errors.invalidInput', { fieldErrors: [{ pointer, key: 'validation.required', params: {} }] });
  /** Runs what a form asks with its file stored; a refused form takes its file away again (nothing half-written). */
  const withFile = async <T>(fileId: string | undefined, act: () => Promise<T>): Promise<T> => {
    try {
      return await act();
    } catch (error) {
      if (fileId) {
        await app.db.query('DELETE FROM file_entity WHERE id = $1', [fileId]);
        await app.fileStorage.remove(fileId);
      }
      throw error;
    }
  };
  const sendFrom = async (request: FastifyRequest, group: boolean) => {
    const id = me(request);
    const { fields, fileId } = await readMessengerForm(app, request, id);
    return withFile(fileId, async () => {
      // ownerId is the sender in the spec's form; it must be the caller.
      if (fields.ownerId && fields.ownerId !== id) throw new ApiError(403, 'errors.forbidden');
      const replyTo = int(fields.id ?? fields.replyTo, '/id');
      if (!group) return m.send(id, { chatId: int(fields.chatId, '/chatId'), receiverId: fields.receiverId, message: fields.message ?? '', fileId, replyTo });
      const groupChatId = int(fields.groupChatId, '/groupChatId');
      if (groupChatId === undefined) throw required('/groupChatId');
      return m.send(id, { groupChatId, message: fields.message ?? '', fileId, replyTo });
    });
  };
  // Forms are read by the handler (JSON or multipart with a file): the body schemas document them.
  const form = { validatorCompiler: handlerReadsBody() };
  const sender = { ownerId: 'The sender: must be the caller', message: 'The text' };
  app.post('/api/chat-message/sendMessage', {
    ...form,
    schema: { tags: ['Messenger'], summary: 'Send to a direct chat (multipart: file, ownerId, chatId or receiverId, message)', body: formBody({ ...sender, chatId: 'The direct chat', receiverId: 'Or the employee to write to' }), response: replies.message },
  }, (request) => sendFrom(request, false));
  app.post('/api/groupChat/chat-message/sendMessage', {
    ...form,
    schema: { tags: ['Messenger'], summary: 'Send to a group chat (multipart: file, ownerId, groupChatId, message)', body: formBody({ ...sender, groupChatId: 'The group chat' }, ['groupChatId']), response: replies.message },
  }, (request) => sendFrom(request, true));
  app.post('/api/chat-message/reply-message', {
    ...form,
    schema: { tags: ['Messenger'], summary: 'Reply to message `id` (multipart: chatId or groupChatId, id, message, file)', body: formBody({ id: 'The message replied to', chatId: 'The direct chat', groupChatId: 'Or the group chat', message: 'The text' }, ['id']), response: replies.message },
  }, async (request) => {
    const fields = !request.isMultipart() ? (request.body ?? {}) as Record<string, unknown> : undefined;
    if (fields && !fields.id) throw new ApiError(400, 'errors.invalidInput', { fieldErrors: [{ pointer: '/id', key: 'validation.required', params: {} }] });
    const id = me(request);
    const form = await readMessengerForm(app, request, id);
    return withFile(form.fileId, async () => {
      const replyTo = int(form.fields.id, '/id');
      if (replyTo === undefined) throw required('/id');
      const groupChatId = int(form.fields.groupChatId, '/groupChatId');
      return m.send(id, groupChatId ? { groupChatId, message: form.fields.message ?? '', fileId: form.fileId, replyTo } : { chatId: int(form.fields.chatId, '/chatId'), message: form.fields.message ?? '', fileId: form.fileId, replyTo });
    });
  });

  app.post<{ Body: { id: number; chatId?: number; groupChatId?: number; receiverId?: number } }>('/api/chat-message/forward-message', {
    schema: { tags: ['Messenger'], summary: 'Forward message `id` to a chat, a group chat or an employee', body: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 }, chatId: { type: 'integer', minimum: 1 }, groupChatId: { type: 'integer', minimum: 1 }, receiverId: { type: 'integer', minimum: 1 } } }, response: replies.message },
  }, async (request) => {
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
    return m.send(id, groupChatId
      ? { groupChatId, message: original.message, fileId, forwardedFrom: original.id }
      : { chatId, receiverId: receiverId === undefined ? undefined : String(receiverId), message: original.message, fileId, forwardedFrom: original.id });
  });

  app.post<{ Body: { id: number; message: string } }>('/api/chat-message/edit', { schema: { tags: ['Messenger'], summary: 'Edit own message (sets `edited`)', body: editBody, response: replies.message } },
    async (request) => m.edit(me(request), request.body.id, request.body.message));
  app.post<{ Body: { id: number; message: string } }>('/api/groupChat/chat-message/edit', { schema: { tags: ['Messenger'], summary: 'Edit own group message (sets `edited`)', body: editBody, response: replies.message } },
    async (request) => m.edit(me(request), request.body.id, request.body.message));
  app.delete<{ Params: { id: number } }>('/api/chat-message/delete/:id', { schema: { tags: ['Messenger'], summary: 'Delete own message', params: idParam, response: replies.deleted } },
    async (request) => { await m.remove(me(request), request.params.id); return { deleted: true }; });
  app.delete<{ Params: { id: number } }>('/api/groupChat/delete/:id', { schema: { tags: ['Messenger'], summary: 'Delete own group message', params: idParam, response: replies.deleted } },
    async (request) => { await m.remove(me(request), request.params.id); return { deleted: true }; });

  app.post<{ Body: { chatId?: number; groupChatId?: number } }>('/api/chat-message/make-read', {
    schema: { tags: ['Messenger'], summary: 'Mark every unread message of a chat as READ (authors are told on makeRead)', body: { type: 'object', additionalProperties: false, properties: { chatId: { type: 'integer', minimum: 1 }, groupChatId: { type: 'integer', minimum: 1 } } }, response: replies.read },
  }, async (request) => m.markRead(me(request), request.body));
  app.get('/api/unread-messages', { schema: { tags: ['Messenger'], summary: 'Unread messages: total, per chat and per group chat', response: replies.unread } }, async (request) => {
    // Counter failures show 0 in the client (spec §8); a visitor simply has none.
    if (!request.actor?.id || request.actor.isOuter || !request.actor.ability.can('read', MESSENGER_SUBJECT)) return { total: 0, chats: [], groupChats: [] };
    return m.unreadCounts(request.actor.id);
  });
  app.post<{ Body: { personName: string; deviceName: string; photo?: string; at?: string } }>('/api/incoming-person', {
    schema: {
      tags: ['Messenger'],
      summary: 'An entrance event (turnstile, camera): told live to every user of the security role on incomingPerson. deviceName "enter" is entering, anything else exiting. Needs "manage all" (the integration account).',
      body: { type: 'object', required: ['personName', 'deviceName'], additionalProperties: false, properties: { personName: { type: 'string', minLength: 1, maxLength: 300 }, deviceName: { type: 'string', minLength: 1, maxLength: 100 }, photo: { type: 'string', maxLength: 500 }, at: { type: 'string', format: 'date-time' } } },
      response: replies.notified,
    },
  }, async (request) => {
    if (!request.actor?.id) throw new ApiError(401, 'errors.sessionExpired');
    if (!request.actor.ability.can('manage', 'all')) throw new ApiError(403, 'errors.forbidden');
    const { rows } = await app.db.query<{ id: number }>(`SELECT id FROM ${userTable} u WHERE u.data->'roles' ? $1 AND ${staffWhere}`, [SECURITY_ROLE]);
    const event = { ...request.body, direction: request.body.deviceName === 'enter' ? 'ENTER' : 'EXIT', at: request.body.at ?? new Date().toISOString() };
    await m.emit(rows.map((r) => String(r.id)), 'incomingPerson', event);
    return { notified: rows.length };
  });
  app.get('/api/letter/get-all-count', { schema: { tags: ['Messenger'], summary: 'The header counters (schemas/_counters/letter-counters.json); also pushed live on notificationMsg', response: replies.counters } }, async (request) => {
    const id = me(request);
    return counters.of(id);
  });
  app.get('/api/notification/unread-messages', { schema: { tags: ['Messenger'], summary: 'The number of unread messages', response: replies.unreadTotal } }, async (request) => {
    if (!request.actor?.id || request.actor.isOuter || !request.actor.ability.can('read', MESSENGER_SUBJECT)) return 0;
    return (await m.unreadCounts(request.actor.id)).total;
  });

  app.get<{ Params: { id: string } }>('/api/chat-message/file/:id', {
    schema: { tags: ['Messenger'], summary: 'An attachment, to the people of its chat', params: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } }, response: replies.file },
  }, async (request, reply) => {
    const id = me(request);
    // Readable by its uploader, and by the people of any chat or group holding a message with it
    // (a forwarded message shares its original's file).
    const { rows } = await app.db.query<{ name: string; mime: string; size: number; readable: boolean }>(
      `SELECT f.name, f.mime, f.size, f.owner = $3 OR EXISTS (
          SELECT 1 FROM chat_message c LEFT JOIN chat ch ON ch.id = c.chat_id
           WHERE c.file_id = f.id AND (ch.user_a = $3 OR ch.user_b = $3
             OR EXISTS (SELECT 1 FROM group_member g WHERE g.group_chat_id = c.group_chat_id AND g.user_id = $3))) AS readable
         FROM file_entity f WHERE f.id = $1 AND f.kind = $2`,
      [request.params.id, MESSENGER_FILE_KIND, id]);
    const file = rows[0];
    if (!file?.readable) throw notFound();
    const stream = app.fileStorage.open(request.params.id);
    if (!stream) throw notFound();
    return reply.header('content-type', file.mime).header('content-length', file.size).header('x-content-type-options', 'nosniff')
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`).send(stream);
  });

  // --- group chats --------------------------------------------------------------------------
  const groupDto = async (groupChatId: number, viewer: string) => {
    const { rows } = await app.db.query<Record<string, unknown>>(
      `SELECT g.id, g.name, CASE WHEN g.photo IS NULL THEN NULL ELSE '/api/groupChat/photo/' || g.id END AS photo, g.owner::int AS "ownerId",
              (SELECT count(*)::int FROM group_member gm WHERE gm.group_chat_id = g.id) AS count,
              (SELECT count(*)::int FROM message_receipt x JOIN chat_message mm ON mm.id = x.message_id WHERE mm.group_chat_id = g.id AND x.user_id = $2 AND x.read_at IS NULL) AS "unreadCount"
         FROM group_chat g WHERE g.id = $1`, [groupChatId, viewer]);
    return rows[0];
  };
  const ownGroup = async (groupChatId: number, id: string) => {
    const members = await m.membersOf(app.db, groupChatId, id);
    const { rows } = await app.db.query<{ owner: string }>('SELECT owner FROM group_chat WHERE id = $1', [groupChatId]);
    if (rows[0]?.owner !== id) throw new ApiError(403, 'errors.forbidden');
    return members;
  };
  const checkStaff = async (ids: number[]) => {
    for (const u of ids) await m.staff(String(u));
  };
  const groupEvent = async (userIds: string[], body: Record<string, unknown>) => m.emit([...new Set(userIds)], 'groupMsg', body);

  app.post<{ Body: { name: string; memberIds?: number[] } }>('/api/groupChat/create', {
    schema: { tags: ['Messenger'], summary: 'A group chat of me and the given employees', body: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, memberIds: idList } }, response: replies.group },
  }, async (request) => {
    const id = me(request);
    const name = request.body.name.trim();
    if (!name) throw new ApiError(400, 'errors.invalidInput', { fieldErrors: [{ pointer: '/name', key: 'validation.required', params: {} }] });
    const memberIds = [...new Set((request.body.memberIds ?? []).map(String))].filter((u) => u !== id);
    await checkStaff(memberIds.map(Number));
    const groupChatId = await app.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number }>('INSERT INTO group_chat (name, owner) VALUES ($1, $2) RETURNING id', [name, id]);
      await tx.query('INSERT INTO group_member (group_chat_id, user_id) SELECT $1, unnest($2::text[])', [rows[0]!.id, [id, ...memberIds]]);
      return rows[0]!.id;
    });
    const dto = await groupDto(groupChatId, id);
    await groupEvent([id, ...memberIds], { action: 'GROUP_CREATED', groupChat: dto });
    return dto;
  });
  app.post<{ Body: { id: number; name: string } }>('/api/groupChat/edit', {
    schema: { tags: ['Messenger'], summary: 'Rename a group chat (its creator)', body: { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string', minLength: 1, maxLength: 200 } } }, response: replies.group },
  }, async (request) => {
    const id = me(request);
    const members = await ownGroup(request.body.id, id);
    if (!request.body.name.trim()) throw new ApiError(400, 'errors.invalidInput', { fieldErrors: [{ pointer: '/name', key: 'validation.required', params: {} }] });
    await app.db.query('UPDATE group_chat SET name = $2 WHERE id = $1', [request.body.id, request.body.name.trim()]);
    const dto = await groupDto(request.body.id, id);
    await groupEvent(members, { action: 'GROUP_EDITED', groupChat: dto });
    return dto;
  });
  app.post<{ Body: { id: number } }>('/api/groupChat/delete', {
    schema: { tags: ['Messenger'], summary: 'Delete a group chat with its messages (its creator)', body: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 } } }, response: replies.deleted },
  }, async (request) => {
    const id = me(request);
    const members = await ownGroup(request.body.id, id);
    await app.db.query('DELETE FROM group_chat WHERE id = $1', [request.body.id]);
    await groupEvent(members, { action: 'GROUP_DELETED', groupChatId: request.body.id });
    return { deleted: true };
  });
  app.post<{ Querystring: { search?: string }; Body: Paging }>('/api/groupChat/list', {
    schema: { tags: ['Messenger'], summary: 'My group chats, the latest first', querystring: searchQuery, body: paging, response: replies.groups },
  }, async (request) => {
    const id = me(request);
    const { page: p = 0, itemsPerPage = 20 } = request.body ?? {};
    const { rows } = await app.db.query<Record<string, unknown> & { total: number }>(
      `SELECT g.id, g.name, CASE WHEN g.photo IS NULL THEN NULL ELSE '/api/groupChat/photo/' || g.id END AS photo, g.owner::int AS "ownerId",
              (SELECT count(*)::int FROM group_member gm WHERE gm.group_chat_id = g.id) AS count,
              (SELECT count(*)::int FROM message_receipt x JOIN chat_message mm ON mm.id = x.message_id WHERE mm.group_chat_id = g.id AND x.user_id = $1 AND x.read_at IS NULL) AS "unreadCount",
              last.message AS "lastMessage", to_char(last.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastMessageAt",
              count(*) OVER ()::int AS total
         FROM group_chat g JOIN group_member me ON me.group_chat_id = g.id AND me.user_id = $1
         LEFT JOIN LATERAL (SELECT message, created_at FROM chat_message WHERE group_chat_id = g.id ORDER BY id DESC LIMIT 1) last ON true
        WHERE ($2::text IS NULL OR g.name ILIKE $2)
        ORDER BY coalesce(last.created_at, g.created_at) DESC, g.id DESC LIMIT $3 OFFSET $4`,
      [id, like(request.query.search), itemsPerPage, p * itemsPerPage]);
    return { list: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
  });
  app.post<{ Params: { id: number }; Querystring: { search?: string }; Body: Paging }>('/api/groupChat/members/:id', {
    schema: { tags: ['Messenger'], summary: 'Members of a group chat', params: idParam, querystring: searchQuery, body: paging, response: replies.members },
  }, async (request) => {
    const id = me(request);
    await m.membersOf(app.db, request.params.id, id);
    const { page: p = 0, itemsPerPage = 50 } = request.body ?? {};
    const { rows } = await app.db.query<Record<string, unknown> & { total: number }>(
      `SELECT u.id AS "employeeId", u.data->>'firstName' AS "firstName", u.data->>'lastName' AS "lastName", ${photoPath('u')} AS "uploadPath", count(*) OVER ()::int AS total
         FROM group_member gm JOIN ${userTable} u ON u.id::text = gm.user_id
        WHERE gm.group_chat_id = $1 AND ($2::text IS NULL OR ${m.nameSql('u')} ILIKE $2)
        ORDER BY u.data->>'lastName', u.id LIMIT $3 OFFSET $4`, [request.params.id, like(request.query.search), itemsPerPage, p * itemsPerPage]);
    return { list: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
  });
  app.post<{ Params: { id: number }; Body: { memberIds: number[] } }>('/api/groupChat/add-members/:id', {
    schema: { tags: ['Messenger'], summary: 'Add employees to a group chat (its creator)', params: idParam, body: membersBody, response: replies.group },
  }, async (request) => {
    const id = me(request);
    const before = await ownGroup(request.params.id, id);
    await checkStaff(request.body.memberIds);
    await app.db.query('INSERT INTO group_member (group_chat_id, user_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [request.params.id, request.body.memberIds.map(String)]);
    const dto = await groupDto(request.params.id, id);
    await groupEvent([...before, ...request.body.memberIds.map(String)], { action: 'MEMBERS_ADDED', groupChat: dto, memberIds: request.body.memberIds });
    return dto;
  });
  app.post<{ Params: { id: number }; Body: { memberIds: number[] } }>('/api/groupChat/delete-members/:id', {
    schema: { tags: ['Messenger'], summary: 'Remove employees from a group chat (its creator; not themself)', params: idParam, body: membersBody, response: replies.group },
  }, async (request) => {
    const id = me(request);
    const before = await ownGroup(request.params.id, id);
    const removed = request.body.memberIds.map(String).filter((u) => u !== id);
    await app.db.query('DELETE FROM group_member WHERE group_chat_id = $1 AND user_id = ANY($2::text[])', [request.params.id, removed]);
    const dto = await groupDto(request.params.id, id);
    await groupEvent(before, { action: 'MEMBERS_REMOVED', groupChat: dto, memberIds: removed.map(Number) });
    return dto;
  });
  app.post('/api/groupChat/uploadPhoto', {
    ...form,
    schema: { tags: ['Messenger'], summary: 'The photo (and optionally a new name) of a group chat (multipart: file, name, groupChatId)', body: formBody({ groupChatId: 'The group chat', name: 'A new name (optional)' }, ['groupChatId']), response: replies.group },
  }, async (request) => {
    const id = me(request);
    const { fields, fileId } = await readMessengerForm(app, request, id);
    const { groupChatId, members } = await withFile(fileId, async () => {
      const groupChatId = int(fields.groupChatId, '/groupChatId');
      if (!groupChatId) throw required('/groupChatId');
      const members = await ownGroup(groupChatId, id);
      if (!fileId) throw new ApiError(400, 'errors.noFiles');
      const { rows } = await app.db.query<{ mime: string }>('SELECT mime FROM file_entity WHERE id = $1', [fileId]);
      if (!rows[0]!.mime.startsWith('image/')) throw new ApiError(415, 'errors.unsupportedType');
      return { groupChatId, members };
    });
    await app.db.query('UPDATE file_entity SET record_id = $2 WHERE id = $1', [fileId, groupChatId]);
    await app.db.query('UPDATE group_chat SET photo = $2, name = coalesce(nullif(trim($3), \'\'), name) WHERE id = $1', [groupChatId, fileId, fields.name ?? '']);
    const dto = await groupDto(groupChatId, id);
    await groupEvent(members, { action: 'GROUP_EDITED', groupChat: dto });
    return dto;
  });
  // --- employee photos ------------------------------------------------------------------------
  // Uploads are the organisation's routes (src/server/files/photo-routes.ts); staff see each
  // other's photo here, whatever their rights on user records.
  app.get<{ Params: { id: number } }>('/api/employee/photo/:id', { schema: { tags: ['Messenger'], summary: 'A staff member’s photo, to staff', params: idParam, response: replies.photo } }, async (request, reply) => {
    me(request);
    const { rows } = await app.db.query<{ photo: string | null; mime: string; size: number }>(
      `SELECT u.data->'photo'->>0 AS photo, f.mime, f.size FROM ${userTable} u JOIN file_entity f ON f.id::text = u.data->'photo'->>0 WHERE u.id = $1 AND ${staffWhere}`, [request.params.id]);
    const stream = rows[0]?.photo ? app.fileStorage.open(rows[0].photo) : undefined;
    if (!stream) throw notFound();
    return reply.header('content-type', rows[0]!.mime).header('content-length', rows[0]!.size).header('x-content-type-options', 'nosniff').send(stream);
  });

  app.get<{ Params: { id: number } }>('/api/groupChat/photo/:id', { schema: { tags: ['Messenger'], summary: 'The photo of a group chat, to its members', params: idParam, response: replies.photo } }, async (request, reply) => {
    await m.membersOf(app.db, request.params.id, me(request));
    const { rows } = await app.db.query<{ photo: string | null; mime: string; size: number }>('SELECT g.photo::text, f.mime, f.size FROM group_chat g JOIN file_entity f ON f.id = g.photo WHERE g.id = $1', [request.params.id]);
    const stream = rows[0]?.photo ? app.fileStorage.open(rows[0].photo) : undefined;
    if (!stream) throw notFound();
    return reply.header('content-type', rows[0]!.mime).header('content-length', rows[0]!.size).header('x-content-type-options', 'nosniff').send(stream);
  });
  });
}, { name: 'messenger', dependencies: ['auth'] });

declare module 'fastify' {
  interface FastifyInstance {
    messenger: MessengerStore & { broker: Broker; counters: ReturnType<typeof createCounters> };
  }
}
