import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../../errors.ts';
import { readMessengerForm } from '../../messenger/upload.ts';
import { formBody, idList, idParam, membersBody, paging, replies, searchQuery } from '../../messenger/route-schemas.ts';
import type { MessengerKit, Paging } from './kit.ts';
import { userFieldSql } from '../../auth/user-directory.ts';

/** The first and last name of the user row `u` (SQL). */
const firstName = userFieldSql('firstName', 'u');
const lastName = userFieldSql('lastName', 'u');

/** Group chats: create, rename, delete, list, members (added and removed by the creator), photo. */
const groups: FastifyPluginAsync<MessengerKit> = async (
  app,
  { m, userTable, me, photoPath, int, like, required, withFile, form },
) => {
  const groupDto = async (groupChatId: number, viewer: string) => {
    const { rows } = await app.db.query<Record<string, unknown>>(
      `SELECT g.id, g.name, CASE WHEN g.photo IS NULL THEN NULL ELSE '/api/groupChat/photo/' || g.id END AS photo, g.owner::int AS "ownerId",
              (SELECT count(*)::int FROM group_member gm WHERE gm.group_chat_id = g.id) AS count,
              (SELECT count(*)::int FROM message_receipt x JOIN chat_message mm ON mm.id = x.message_id WHERE mm.group_chat_id = g.id AND x.user_id = $2 AND x.read_at IS NULL) AS "unreadCount"
         FROM group_chat g WHERE g.id = $1`,
      [groupChatId, viewer],
    );
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
  const groupEvent = async (userIds: string[], body: Record<string, unknown>) =>
    m.emit([...new Set(userIds)], 'groupMsg', body);

  app.post<{ Body: { name: string; memberIds?: number[] } }>(
    '/api/groupChat/create',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'A group chat of me and the given employees',
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, memberIds: idList },
        },
        response: replies.group,
      },
    },
    async (request) => {
      const id = me(request);
      const name = request.body.name.trim();
      if (!name)
        throw new ApiError(400, 'errors.invalidInput', {
          fieldErrors: [{ pointer: '/name', key: 'validation.required', params: {} }],
        });
      const memberIds = [...new Set((request.body.memberIds ?? []).map(String))].filter((u) => u !== id);
      await checkStaff(memberIds.map(Number));
      const groupChatId = await app.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: number }>(
          'INSERT INTO group_chat (name, owner) VALUES ($1, $2) RETURNING id',
          [name, id],
        );
        await tx.query('INSERT INTO group_member (group_chat_id, user_id) SELECT $1, unnest($2::text[])', [
          rows[0]!.id,
          [id, ...memberIds],
        ]);
        return rows[0]!.id;
      });
      const dto = await groupDto(groupChatId, id);
      await groupEvent([id, ...memberIds], { action: 'GROUP_CREATED', groupChat: dto });
      return dto;
    },
  );
  app.post<{ Body: { id: number; name: string } }>(
    '/api/groupChat/edit',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Rename a group chat (its creator)',
        body: {
          type: 'object',
          required: ['id', 'name'],
          additionalProperties: false,
          properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string', minLength: 1, maxLength: 200 } },
        },
        response: replies.group,
      },
    },
    async (request) => {
      const id = me(request);
      const members = await ownGroup(request.body.id, id);
      if (!request.body.name.trim())
        throw new ApiError(400, 'errors.invalidInput', {
          fieldErrors: [{ pointer: '/name', key: 'validation.required', params: {} }],
        });
      await app.db.query('UPDATE group_chat SET name = $2 WHERE id = $1', [request.body.id, request.body.name.trim()]);
      const dto = await groupDto(request.body.id, id);
      await groupEvent(members, { action: 'GROUP_EDITED', groupChat: dto });
      return dto;
    },
  );
  app.post<{ Body: { id: number } }>(
    '/api/groupChat/delete',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Delete a group chat with its messages (its creator)',
        body: {
          type: 'object',
          required: ['id'],
          additionalProperties: false,
          properties: { id: { type: 'integer', minimum: 1 } },
        },
        response: replies.deleted,
      },
    },
    async (request) => {
      const id = me(request);
      const members = await ownGroup(request.body.id, id);
      await app.db.query('DELETE FROM group_chat WHERE id = $1', [request.body.id]);
      await groupEvent(members, { action: 'GROUP_DELETED', groupChatId: request.body.id });
      return { deleted: true };
    },
  );
  app.post<{ Querystring: { search?: string }; Body: Paging }>(
    '/api/groupChat/list',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'My group chats, the latest first',
        querystring: searchQuery,
        body: paging,
        response: replies.groups,
      },
    },
    async (request) => {
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
        [id, like(request.query.search), itemsPerPage, p * itemsPerPage],
      );
      return { list: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
    },
  );
  app.post<{ Params: { id: number }; Querystring: { search?: string }; Body: Paging }>(
    '/api/groupChat/members/:id',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Members of a group chat',
        params: idParam,
        querystring: searchQuery,
        body: paging,
        response: replies.members,
      },
    },
    async (request) => {
      const id = me(request);
      await m.membersOf(app.db, request.params.id, id);
      const { page: p = 0, itemsPerPage = 50 } = request.body ?? {};
      const { rows } = await app.db.query<Record<string, unknown> & { total: number }>(
        `SELECT u.id AS "employeeId", ${firstName} AS "firstName", ${lastName} AS "lastName", ${photoPath('u')} AS "uploadPath", count(*) OVER ()::int AS total
         FROM group_member gm JOIN ${userTable} u ON u.id::text = gm.user_id
        WHERE gm.group_chat_id = $1 AND ($2::text IS NULL OR ${m.nameSql('u')} ILIKE $2)
        ORDER BY ${lastName}, u.id LIMIT $3 OFFSET $4`,
        [request.params.id, like(request.query.search), itemsPerPage, p * itemsPerPage],
      );
      return { list: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
    },
  );
  app.post<{ Params: { id: number }; Body: { memberIds: number[] } }>(
    '/api/groupChat/add-members/:id',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Add employees to a group chat (its creator)',
        params: idParam,
        body: membersBody,
        response: replies.group,
      },
    },
    async (request) => {
      const id = me(request);
      const before = await ownGroup(request.params.id, id);
      await checkStaff(request.body.memberIds);
      await app.db.query(
        'INSERT INTO group_member (group_chat_id, user_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
        [request.params.id, request.body.memberIds.map(String)],
      );
      const dto = await groupDto(request.params.id, id);
      await groupEvent([...before, ...request.body.memberIds.map(String)], {
        action: 'MEMBERS_ADDED',
        groupChat: dto,
        memberIds: request.body.memberIds,
      });
      return dto;
    },
  );
  app.post<{ Params: { id: number }; Body: { memberIds: number[] } }>(
    '/api/groupChat/delete-members/:id',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Remove employees from a group chat (its creator; not themself)',
        params: idParam,
        body: membersBody,
        response: replies.group,
      },
    },
    async (request) => {
      const id = me(request);
      const before = await ownGroup(request.params.id, id);
      const removed = request.body.memberIds.map(String).filter((u) => u !== id);
      await app.db.query('DELETE FROM group_member WHERE group_chat_id = $1 AND user_id = ANY($2::text[])', [
        request.params.id,
        removed,
      ]);
      const dto = await groupDto(request.params.id, id);
      await groupEvent(before, { action: 'MEMBERS_REMOVED', groupChat: dto, memberIds: removed.map(Number) });
      return dto;
    },
  );
  app.post(
    '/api/groupChat/uploadPhoto',
    {
      ...form,
      schema: {
        tags: ['Messenger'],
        summary: 'The photo (and optionally a new name) of a group chat (multipart: file, name, groupChatId)',
        body: formBody({ groupChatId: 'The group chat', name: 'A new name (optional)' }, ['groupChatId']),
        response: replies.group,
      },
    },
    async (request) => {
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
      await app.db.query(
        "UPDATE group_chat SET photo = $2, name = coalesce(nullif(trim($3), ''), name) WHERE id = $1",
        [groupChatId, fileId, fields.name ?? ''],
      );
      const dto = await groupDto(groupChatId, id);
      await groupEvent(members, { action: 'GROUP_EDITED', groupChat: dto });
      return dto;
    },
  );
};

export default groups;
