import type { FastifyPluginAsync } from 'fastify';
import { errorBodySchema } from '../../errors.ts';
import type { MessengerKit } from './kit.ts';

const row = {
  type: 'object',
  required: ['name', 'direct', 'group', 'link'],
  properties: {
    name: { type: 'string', description: 'The other person of a direct chat, or the group chat’s name' },
    chatId: { type: ['integer', 'null'] },
    groupChatId: { type: ['integer', 'null'] },
    direct: { type: 'integer', description: 'Unread messages in this direct chat (0 for a group chat)' },
    group: { type: 'integer', description: 'Unread messages in this group chat (0 for a direct chat)' },
    link: { type: 'string', description: 'Where the messenger opens' },
  },
} as const;

/**
 * `GET /api/unread-messages/summary`: the signed-in staff member's unread messages as a
 * dashboard table — one row per chat with unread messages, direct and group counts in their
 * own columns (so a total row gives the two totals), most unread first, each with the
 * messenger's address. The same counts as `/api/unread-messages` (message receipts not read).
 */
const unreadSummary: FastifyPluginAsync<MessengerKit> = async (app, { m, userTable, me }) => {
  // The messenger's own screen (by its kind: no route is written here).
  const messengerRoute = [...app.definitions.screens.values()].find((s) => s.kind === 'messenger')?.route ?? '/';
  app.get(
    '/api/unread-messages/summary',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'Unread messages per chat, for the staff dashboard: {list: [{name, direct, group, link}], total}',
        querystring: { type: 'object', properties: { lang: { type: 'string' } } },
        response: {
          200: {
            type: 'object',
            required: ['list', 'total'],
            properties: { list: { type: 'array', items: row }, total: { type: 'integer' } },
          },
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => {
      const id = me(request);
      const { rows } = await app.db.query<{
        name: string | null;
        chatId: number | null;
        groupChatId: number | null;
        direct: number;
        group: number;
      }>(
        `SELECT coalesce(g.name, (SELECT ${m.nameSql('u')} FROM ${userTable} u
                  WHERE u.id::text = CASE WHEN c.user_a = $1 THEN c.user_b ELSE c.user_a END)) AS name,
                m.chat_id::int AS "chatId", m.group_chat_id::int AS "groupChatId",
                count(*) FILTER (WHERE m.chat_id IS NOT NULL)::int AS direct,
                count(*) FILTER (WHERE m.group_chat_id IS NOT NULL)::int AS "group"
           FROM message_receipt x
           JOIN chat_message m ON m.id = x.message_id
           LEFT JOIN chat c ON c.id = m.chat_id
           LEFT JOIN group_chat g ON g.id = m.group_chat_id
          WHERE x.user_id = $1 AND x.read_at IS NULL
          GROUP BY m.chat_id, m.group_chat_id, c.user_a, c.user_b, g.name
          ORDER BY count(*) DESC, 1`,
        [id],
      );
      const list = rows.map((r) => ({ ...r, name: r.name ?? '', link: messengerRoute }));
      return { list, total: list.length };
    },
  );
};

export default unreadSummary;
