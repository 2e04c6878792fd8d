/**
 * How the messenger reads messages: the row one SELECT answers (with its file, the message it
 * replies to, whether it is read and its author's name), the message as the API and the live
 * events carry it, and a page of a chat's messages.
 */
import type { Queryable } from '../db/database.ts';
import { containsPattern } from './search.ts';
import { messengerNameSql } from '../auth/user-directory.ts';

/** A file attached to a message. */
export interface FileRef {
  id: string;
  name: string;
  mime: string;
  size: number;
}

/** A message as the API answers it and the live events carry it. */
export interface MessageDto {
  id: number;
  chatId: number | null;
  groupChatId: number | null;
  message: string;
  /** READ once read: by the viewer (received messages) or by someone else (own messages). */
  isRead: 'READ' | 'UNREAD';
  edited: boolean;
  ownerId: number;
  ownerName: string;
  file: FileRef | null;
  replyTo: { id: number; message: string; ownerId: number } | null;
  forwardedFrom: number | null;
  createdAt: string;
}

/** What a live message event carries: the message and what happened to it. */
export type MessageAction = 'NEW' | 'EDIT' | 'DELETE';

/** A row of {@link messageSelect}. */
export interface MessageRow {
  id: number;
  chat_id: number | null;
  group_chat_id: number | null;
  owner_id: string;
  message: string;
  file_id: string | null;
  file_name: string | null;
  file_mime: string | null;
  file_size: number | null;
  reply_to: number | null;
  reply_message: string | null;
  reply_owner: string | null;
  forwarded_from: number | null;
  edited: boolean;
  created_at: string;
  read: boolean;
  owner_name: string | null;
}

/** SQL of a user's display name ("last first") from the user entity's table aliased `alias`. */
export const nameSql = messengerNameSql;

/**
 * The SELECT of messages as {@link MessageRow}s, read as seen by `viewer` (an SQL expression:
 * a parameter such as `$1`); `usersTable` is the user entity's table. The caller adds WHERE.
 */
export const messageSelect = (viewer: string, usersTable: string) => `
    SELECT m.id, m.chat_id, m.group_chat_id, m.owner_id, m.message, m.file_id::text, f.name AS file_name, f.mime AS file_mime, f.size AS file_size,
           m.reply_to, r.message AS reply_message, r.owner_id AS reply_owner, m.forwarded_from, m.edited,
           to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
           CASE WHEN m.owner_id = ${viewer}
                THEN EXISTS (SELECT 1 FROM message_receipt x WHERE x.message_id = m.id AND x.read_at IS NOT NULL)
                ELSE EXISTS (SELECT 1 FROM message_receipt x WHERE x.message_id = m.id AND x.user_id = ${viewer} AND x.read_at IS NOT NULL) END AS read,
           ${nameSql('u')} AS owner_name
      FROM chat_message m
      LEFT JOIN file_entity f ON f.id = m.file_id
      LEFT JOIN chat_message r ON r.id = m.reply_to
      LEFT JOIN ${usersTable} u ON u.id::text = m.owner_id`;

/** A message row as the API and the live events carry it. */
export const toDto = (r: MessageRow): MessageDto => ({
  id: r.id,
  chatId: r.chat_id,
  groupChatId: r.group_chat_id,
  message: r.message,
  isRead: r.read ? 'READ' : 'UNREAD',
  edited: r.edited,
  ownerId: Number(r.owner_id),
  ownerName: r.owner_name ?? '',
  file: r.file_id ? { id: r.file_id, name: r.file_name!, mime: r.file_mime!, size: r.file_size! } : null,
  replyTo: r.reply_to ? { id: r.reply_to, message: r.reply_message ?? '', ownerId: Number(r.reply_owner) } : null,
  forwardedFrom: r.forwarded_from,
  createdAt: r.created_at,
});

/**
 * One page of a chat's or group chat's messages as `me` sees them, newest page first, and the
 * total (of those matching `page.search`). Whether `me` may read the chat is the caller's check.
 */
export async function listMessages(
  db: Queryable,
  usersTable: string,
  me: string,
  where: { chatId?: number; groupChatId?: number },
  page: { page: number; itemsPerPage: number; search?: string | undefined; beforeId?: number | undefined },
) {
  const params: unknown[] = [me, where.chatId ?? where.groupChatId];
  const conds = [where.chatId !== undefined ? 'm.chat_id = $2' : 'm.group_chat_id = $2'];
  if (page.search) {
    params.push(containsPattern(page.search));
    conds.push(`m.search_text LIKE $${params.length}`);
  }
  const total = (
    await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM chat_message m WHERE $1::text IS NOT NULL AND ${conds.join(' AND ')}`,
      params,
    )
  ).rows[0]!.n;
  if (page.beforeId !== undefined) {
    params.push(page.beforeId);
    conds.push(`m.id < $${params.length}`);
  }
  params.push(page.itemsPerPage, page.beforeId !== undefined ? 0 : page.page * page.itemsPerPage);
  const { rows } = await db.query<MessageRow>(
    `${messageSelect('$1', usersTable)} WHERE ${conds.join(' AND ')} ORDER BY m.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  // Newest page first, each page oldest-to-newest: the view scrolls up for older pages.
  return { list: rows.map(toDto).reverse(), total };
}
