import type { FastifyPluginAsync } from 'fastify';
import { idParam, paging, replies, searchQuery } from '../../messenger/route-schemas.ts';
import type { MessengerKit, Paging } from './kit.ts';
import { userFieldSql } from '../../auth/user-directory.ts';

/** The first and last name of the user row `u` (SQL). */
const firstName = userFieldSql('firstName', 'u');
const lastName = userFieldSql('lastName', 'u');

/** Contacts (staff one may write to, with the direct chat if any), one's direct chats, and opening one. */
const chats: FastifyPluginAsync<MessengerKit> = async (app, { m, userTable, me, staffWhere, photoPath, like }) => {
  app.post<{ Querystring: { search?: string }; Body: Paging }>(
    '/api/employee/get-by-chat',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Staff one may write to, with the direct chat if there is one',
        querystring: searchQuery,
        body: paging,
        response: replies.contacts,
      },
    },
    async (request) => {
      const id = me(request);
      const { page = 0, itemsPerPage = 20 } = request.body ?? {};
      const params = [id, like(request.query.search), itemsPerPage, page * itemsPerPage];
      const { rows } = await app.db.query<Record<string, unknown> & { total: number }>(
        `SELECT u.id AS "employeeId", ${firstName} AS "firstName", ${lastName} AS "lastName", ${photoPath('u')} AS "uploadPath",
              c.id AS "chatId", count(*) OVER ()::int AS total
         FROM ${userTable} u
         LEFT JOIN chat c ON (c.user_a = $1 AND c.user_b = u.id::text) OR (c.user_b = $1 AND c.user_a = u.id::text)
        WHERE ${staffWhere} AND u.id::text <> $1
          AND ($2::text IS NULL OR ${m.nameSql('u')} ILIKE $2 OR ${firstName} || ' ' || coalesce(${lastName}, '') ILIKE $2)
        ORDER BY ${lastName}, ${firstName}, u.id LIMIT $3 OFFSET $4`,
        params,
      );
      return { list: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
    },
  );

  app.post<{ Querystring: { search?: string }; Body: Paging }>(
    '/api/chat/list',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'My direct chats, the latest first, with unread counts',
        querystring: searchQuery,
        body: paging,
        response: replies.chats,
      },
    },
    async (request) => {
      const id = me(request);
      const { page = 0, itemsPerPage = 20 } = request.body ?? {};
      const { rows } = await app.db.query<Record<string, unknown> & { total: number }>(
        `SELECT c.id AS "chatId", u.id AS "employeeId", ${firstName} AS "firstName", ${lastName} AS "lastName", ${photoPath('u')} AS "uploadPath",
              last.message AS "lastMessage", to_char(last.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastMessageAt",
              (SELECT count(*)::int FROM message_receipt x JOIN chat_message mm ON mm.id = x.message_id WHERE mm.chat_id = c.id AND x.user_id = $1 AND x.read_at IS NULL) AS "unreadCount",
              count(*) OVER ()::int AS total
         FROM chat c
         JOIN ${userTable} u ON u.id::text = CASE WHEN c.user_a = $1 THEN c.user_b ELSE c.user_a END
         LEFT JOIN LATERAL (SELECT message, created_at FROM chat_message WHERE chat_id = c.id ORDER BY id DESC LIMIT 1) last ON true
        WHERE (c.user_a = $1 OR c.user_b = $1) AND ($2::text IS NULL OR ${m.nameSql('u')} ILIKE $2)
        ORDER BY coalesce(last.created_at, c.created_at) DESC, c.id DESC LIMIT $3 OFFSET $4`,
        [id, like(request.query.search), itemsPerPage, page * itemsPerPage],
      );
      return { list: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
    },
  );

  app.post<{ Params: { id: number } }>(
    '/api/chat/create/:id',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'The direct chat with an employee (made on first use)',
        params: idParam,
        response: replies.chat,
      },
    },
    async (request) => ({ chatId: await m.openChat(me(request), String(request.params.id)) }),
  );
};

export default chats;
