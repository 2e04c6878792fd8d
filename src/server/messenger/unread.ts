/**
 * The messenger's unread counts: what a user has unread (per chat and in all), and telling users
 * their counts live on `unreadMessage` after a message is sent, deleted or read.
 */
import type { Queryable } from '../db/database.ts';

/** The counts of unread messages of the messenger store `db`; `push` sends one live event to a user. */
export function createUnreadCounts(db: Queryable, push: (userId: string, channel: string, body: unknown) => unknown) {
  const unreadCounts = async (me: string) => {
    const { rows } = await db.query<{ chat_id: number | null; group_chat_id: number | null; n: number }>(
      `SELECT m.chat_id, m.group_chat_id, count(*)::int AS n FROM message_receipt x JOIN chat_message m ON m.id = x.message_id
        WHERE x.user_id = $1 AND x.read_at IS NULL GROUP BY m.chat_id, m.group_chat_id`,
      [me],
    );
    return {
      total: rows.reduce((s, r) => s + r.n, 0),
      chats: rows.filter((r) => r.chat_id !== null).map((r) => ({ chatId: r.chat_id!, count: r.n })),
      groupChats: rows
        .filter((r) => r.group_chat_id !== null)
        .map((r) => ({ groupChatId: r.group_chat_id!, count: r.n })),
    };
  };
  /** Tells each user their unread count in one chat and in all, on unreadMessage (one query for all of them). */
  const pushUnread = async (userIds: string[], m: { chatId: number | null; groupChatId: number | null }) => {
    if (!userIds.length) return;
    const column = m.chatId !== null ? 'chat_id' : 'group_chat_id';
    const { rows } = await db.query<{ user_id: string; total: number; here: number }>(
      `SELECT u.user_id, count(x.message_id)::int AS total, count(x.message_id) FILTER (WHERE mm.${column} = $2)::int AS here
         FROM unnest($1::text[]) AS u(user_id)
         LEFT JOIN message_receipt x ON x.user_id = u.user_id AND x.read_at IS NULL
         LEFT JOIN chat_message mm ON mm.id = x.message_id
        GROUP BY u.user_id`,
      [userIds, m.chatId ?? m.groupChatId],
    );
    for (const r of rows)
      await push(r.user_id, 'unreadMessage', {
        chatId: m.chatId,
        groupChatId: m.groupChatId,
        count: r.here,
        total: r.total,
      });
  };
  const pushUnreadOf = (userId: string, m: { chatId: number | null; groupChatId: number | null }) =>
    pushUnread([userId], m);

  return { unreadCounts, pushUnread, pushUnreadOf };
}
