import type { Database, Queryable } from '../db/database.ts';
import { ApiError, notFound } from '../errors.ts';
import type { Broker, LiveEvent } from './broker.ts';
import {
  listMessages,
  messageSelect,
  nameSql,
  toDto,
  type MessageAction,
  type MessageDto,
  type MessageRow,
} from './message-query.ts';
import { searchKey } from './search.ts';
import type { Person, UserDirectory } from '../auth/user-directory.ts';
import { createUnreadCounts } from './unread.ts';

/** How long a colleague once found to be staff is taken to still be (auth keeps a user's rights as long). */
const STAFF_RECHECK_MS = 10_000;

/** How the messenger reads users: staff only, from the user entity's table, through the user directory. */
export type UserSource = Pick<UserDirectory, 'table' | 'person'>;

export function createMessengerStore(db: Database, broker: Broker, users: UserSource) {
  /** Stores events (in the caller's transaction), to be published after it commits. */
  const stage = async (
    tx: Queryable,
    userIds: string[],
    channel: string,
    body: unknown,
    receipts?: { messageId: number; userIds: string[] },
  ): Promise<LiveEvent[]> => {
    if (!userIds.length) return [];
    // A new message's receipts go in the same statement as its events: one round trip fewer on the hot path.
    const withReceipts = receipts && receipts.userIds.length > 0;
    const { rows } = await tx.query<{ id: number; user_id: string }>(
      `${withReceipts ? 'WITH r AS (INSERT INTO message_receipt (message_id, user_id) SELECT $4, unnest($5::text[])) ' : ''}INSERT INTO messenger_event (user_id, channel, body) SELECT unnest($1::text[]), $2, $3::jsonb RETURNING id, user_id`,
      withReceipts
        ? [userIds, channel, JSON.stringify(body), receipts.messageId, receipts.userIds]
        : [userIds, channel, JSON.stringify(body)],
    );
    return rows.map((r) => ({ id: r.id, userId: r.user_id, channel, body }));
  };
  const publish = async (events: LiveEvent[]) => {
    for (const e of events) await broker.publish(e);
  };
  /** Stores and publishes at once (events not tied to another write). */
  const emit = async (userIds: string[], channel: string, body: unknown) =>
    publish(await stage(db, userIds, channel, body));
  /** State, not history (counters): published without a row, never replayed. */
  const push = (userId: string, channel: string, body: unknown) => broker.publish({ id: 0, userId, channel, body });
  const { unreadCounts, pushUnread, pushUnreadOf } = createUnreadCounts(db, push);

  const person = (id: string) => users.person(id);
  /** Only staff talk in the messenger (spec §1): a signed-in user who is not an outer user. */
  const staff = async (id: string): Promise<Person> => {
    const p = await person(id);
    if (!p || p.isOuter || !p.canLogin) throw new ApiError(404, 'messenger.errors.noSuchEmployee');
    return p;
  };

  const chatOf = async (tx: Queryable, chatId: number, me: string) => {
    const { rows } = await tx.query<{ id: number; user_a: string; user_b: string }>(
      'SELECT id, user_a, user_b FROM chat WHERE id = $1',
      [chatId],
    );
    const chat = rows[0];
    if (!chat || (chat.user_a !== me && chat.user_b !== me)) throw notFound();
    return { id: chat.id, other: chat.user_a === me ? chat.user_b : chat.user_a };
  };
  const membersOf = async (tx: Queryable, groupChatId: number, me: string): Promise<string[]> => {
    const { rows } = await tx.query<{ user_id: string }>('SELECT user_id FROM group_member WHERE group_chat_id = $1', [
      groupChatId,
    ]);
    const members = rows.map((r) => r.user_id);
    if (!members.includes(me)) throw notFound();
    return members;
  };
  // Direct chats are never deleted nor re-paired: their ids are remembered (the hot path of a send by receiverId).
  const chatIds = new Map<string, number>();
  const staffSeen = new Map<string, number>();
  /** The direct chat of two staff members, made on first use. */
  const checkOther = async (me: string, other: string) => {
    if (me === other) throw new ApiError(400, 'messenger.errors.selfChat');
    // Whether the other is staff is read again after STAFF_RECHECK_MS, as auth rereads a user's rights.
    if (!(Date.now() - (staffSeen.get(other) ?? 0) < STAFF_RECHECK_MS)) {
      await staff(other);
      if (staffSeen.size >= 100_000) staffSeen.clear();
      staffSeen.set(other, Date.now());
    }
  };
  /** The pair's chat id, inserting the chat if new (in `q`'s transaction); remembered only once committed (`remember`). */
  const chatOfPair = async (q: Queryable, me: string, other: string): Promise<{ id: number; remember: () => void }> => {
    const [a, b] = [me, other].sort();
    const key = `${a} ${b}`;
    const known = chatIds.get(key);
    if (known !== undefined) return { id: known, remember: () => undefined };
    // One statement: the new row, or the existing one (a data-modifying CTE is invisible to its own SELECT, so never both).
    const { rows } = await q.query<{ id: number }>(
      `WITH ins AS (INSERT INTO chat (user_a, user_b) VALUES ($1, $2) ON CONFLICT (user_a, user_b) DO NOTHING RETURNING id)
       SELECT id FROM ins UNION ALL SELECT id FROM chat WHERE user_a = $1 AND user_b = $2`,
      [a, b],
    );
    // A concurrent insert committed during the statement is seen by the next one.
    const id =
      rows[0]?.id ??
      (await q.query<{ id: number }>('SELECT id FROM chat WHERE user_a = $1 AND user_b = $2', [a, b])).rows[0]!.id;
    return {
      id,
      remember: () => {
        if (chatIds.size >= 100_000) chatIds.clear();
        chatIds.set(key, id);
      },
    };
  };
  /** The direct chat of two staff members, made on first use. */
  const openChat = async (me: string, other: string): Promise<number> => {
    await checkOther(me, other);
    const chat = await chatOfPair(db, me, other);
    chat.remember();
    return chat.id;
  };

  const loadMessage = async (tx: Queryable, id: number, viewer: string): Promise<MessageDto | undefined> => {
    const { rows } = await tx.query<MessageRow>(`${messageSelect('$2', users.table)} WHERE m.id = $1`, [id, viewer]);
    return rows[0] && toDto(rows[0]);
  };
  /** Whom a message concerns: the two of a chat or the members of a group. */
  const audience = async (
    tx: Queryable,
    m: { chat_id: number | null; group_chat_id: number | null },
    me: string,
  ): Promise<string[]> =>
    m.chat_id !== null ? [me, (await chatOf(tx, m.chat_id, me)).other] : membersOf(tx, m.group_chat_id!, me);

  interface SendInput {
    chatId?: number | undefined;
    receiverId?: string | undefined;
    groupChatId?: number | undefined;
    message: string;
    fileId?: string | undefined;
    replyTo?: number | undefined;
    forwardedFrom?: number | undefined;
  }

  /** Stores a message with one receipt per recipient and a NEW event for everyone in the chat, then publishes. */
  const send = async (me: string, input: SendInput): Promise<MessageDto> => {
    const text = (input.message ?? '').trim();
    if (!text && !input.fileId)
      throw new ApiError(400, 'errors.invalidInput', {
        fieldErrors: [{ pointer: '/message', key: 'messenger.errors.empty', params: {} }],
      });
    if (text.length > 10_000)
      throw new ApiError(400, 'errors.invalidInput', {
        fieldErrors: [{ pointer: '/message', key: 'messenger.errors.tooLong', params: { limit: 10_000 } }],
      });
    let chatId = input.chatId ?? null;
    // By receiverId: the chat is made, if new, in the message's own transaction (one commit, not two),
    // and its two people need no second look-up.
    let pair: [string, string] | undefined;
    if (chatId === null && input.groupChatId === undefined && input.receiverId) {
      await checkOther(me, input.receiverId);
      pair = [me, input.receiverId];
    }
    let opened: { id: number; remember: () => void } | undefined;
    if (chatId === null && input.groupChatId === undefined && !pair)
      throw new ApiError(400, 'errors.invalidInput', {
        fieldErrors: [{ pointer: '/chatId', key: 'validation.required', params: {} }],
      });
    let dto!: MessageDto;
    const events = await db.transaction(async (tx) => {
      if (pair) chatId = (opened = await chatOfPair(tx, ...pair)).id;
      const everyone =
        pair ??
        (chatId !== null ? [me, (await chatOf(tx, chatId, me)).other] : await membersOf(tx, input.groupChatId!, me));
      if (input.replyTo !== undefined) {
        const { rows } = await tx.query<{ chat_id: number | null; group_chat_id: number | null }>(
          'SELECT chat_id, group_chat_id FROM chat_message WHERE id = $1',
          [input.replyTo],
        );
        if (!rows[0] || rows[0].chat_id !== chatId || rows[0].group_chat_id !== (input.groupChatId ?? null))
          throw notFound();
      }
      // One's own upload, or (forwarding) the file of a message the caller has already been shown to be able to read.
      if (input.fileId && input.forwardedFrom === undefined) {
        const { rows } = await tx.query<{ owner: string | null }>('SELECT owner FROM file_entity WHERE id = $1', [
          input.fileId,
        ]);
        if (rows[0]?.owner !== me) throw notFound();
      }
      // The new row answers what its message needs (time, author's name), saving a read-back of a plain message.
      const { rows } = await tx.query<{ id: number; created_at: string; owner_name: string | null }>(
        `INSERT INTO chat_message (chat_id, group_chat_id, owner_id, message, file_id, reply_to, forwarded_from, search_text) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, (SELECT ${nameSql('u')} FROM ${users.table} u WHERE u.id::text = $3) AS owner_name`,
        [
          chatId,
          input.groupChatId ?? null,
          me,
          text,
          input.fileId ?? null,
          input.replyTo ?? null,
          input.forwardedFrom ?? null,
          searchKey(text),
        ],
      );
      const { id, created_at: createdAt, owner_name: ownerName } = rows[0]!;
      const recipients = everyone.filter((u) => u !== me);
      if (input.fileId && input.forwardedFrom === undefined)
        await tx.query('UPDATE file_entity SET record_id = $1 WHERE id = $2', [id, input.fileId]);
      dto =
        input.fileId || input.replyTo !== undefined
          ? (await loadMessage(tx, id, me))!
          : {
              id,
              chatId,
              groupChatId: input.groupChatId ?? null,
              message: text,
              isRead: 'UNREAD',
              edited: false,
              ownerId: Number(me),
              ownerName: ownerName ?? '',
              file: null,
              replyTo: null,
              forwardedFrom: input.forwardedFrom ?? null,
              createdAt,
            };
      return stage(
        tx,
        everyone,
        chatId !== null ? 'msg' : 'groupMsg',
        { action: 'NEW' satisfies MessageAction, ...dto, isRead: 'UNREAD' },
        { messageId: id, userIds: recipients },
      );
    });
    opened?.remember();
    await publish(events);
    await pushUnread(
      events.map((e) => e.userId).filter((u) => u !== me),
      dto,
    );
    return dto;
  };

  /** Only the author edits or deletes; everyone in the chat sees it live. */
  const ownMessage = async (tx: Queryable, id: number, me: string) => {
    const { rows } = await tx.query<{ owner_id: string; chat_id: number | null; group_chat_id: number | null }>(
      'SELECT owner_id, chat_id, group_chat_id FROM chat_message WHERE id = $1 FOR UPDATE',
      [id],
    );
    const m = rows[0];
    if (!m) throw notFound();
    const everyone = await audience(tx, m, me);
    if (m.owner_id !== me) throw new ApiError(403, 'errors.forbidden');
    return { ...m, everyone };
  };
  const edit = async (me: string, id: number, message: string): Promise<MessageDto> => {
    const text = (message ?? '').trim();
    if (!text || text.length > 10_000)
      throw new ApiError(400, 'errors.invalidInput', {
        fieldErrors: [
          {
            pointer: '/message',
            key: text ? 'messenger.errors.tooLong' : 'messenger.errors.empty',
            params: { limit: 10_000 },
          },
        ],
      });
    let dto!: MessageDto;
    const events = await db.transaction(async (tx) => {
      const m = await ownMessage(tx, id, me);
      await tx.query('UPDATE chat_message SET message = $2, search_text = $3, edited = true WHERE id = $1', [
        id,
        text,
        searchKey(text),
      ]);
      dto = (await loadMessage(tx, id, me))!;
      return stage(tx, m.everyone, m.chat_id !== null ? 'msg' : 'groupMsg', {
        action: 'EDIT' satisfies MessageAction,
        ...dto,
      });
    });
    await publish(events);
    return dto;
  };
  const remove = async (me: string, id: number): Promise<void> => {
    let target!: { chatId: number | null; groupChatId: number | null; others: string[] };
    const events = await db.transaction(async (tx) => {
      const m = await ownMessage(tx, id, me);
      await tx.query('DELETE FROM chat_message WHERE id = $1', [id]);
      target = { chatId: m.chat_id, groupChatId: m.group_chat_id, others: m.everyone.filter((u) => u !== me) };
      return stage(tx, m.everyone, m.chat_id !== null ? 'msg' : 'groupMsg', {
        action: 'DELETE' satisfies MessageAction,
        id,
        chatId: m.chat_id,
        groupChatId: m.group_chat_id,
      });
    });
    await publish(events);
    await pushUnread(target.others, target);
  };

  /** Marks everything unread in one chat as read by me; the authors get `makeRead`. */
  const markRead = async (me: string, where: { chatId?: number | undefined; groupChatId?: number | undefined }) => {
    let readIds: Array<{ id: number; owner_id: string }> = [];
    const events = await db.transaction(async (tx) => {
      if (where.chatId !== undefined) await chatOf(tx, where.chatId, me);
      else if (where.groupChatId !== undefined) await membersOf(tx, where.groupChatId, me);
      else
        throw new ApiError(400, 'errors.invalidInput', {
          fieldErrors: [{ pointer: '/chatId', key: 'validation.required', params: {} }],
        });
      const column = where.chatId !== undefined ? 'chat_id' : 'group_chat_id';
      const { rows } = await tx.query<{ id: number; owner_id: string }>(
        `UPDATE message_receipt x SET read_at = now() FROM chat_message m
          WHERE m.id = x.message_id AND x.user_id = $1 AND x.read_at IS NULL AND m.${column} = $2 RETURNING m.id, m.owner_id`,
        [me, where.chatId ?? where.groupChatId],
      );
      readIds = rows;
      const byOwner = new Map<string, number[]>();
      for (const r of rows) byOwner.set(r.owner_id, [...(byOwner.get(r.owner_id) ?? []), r.id]);
      const staged: LiveEvent[] = [];
      for (const [owner, ids] of byOwner)
        staged.push(
          ...(await stage(tx, [owner], 'makeRead', {
            chatId: where.chatId ?? null,
            groupChatId: where.groupChatId ?? null,
            messageIds: ids.sort((a, b) => a - b),
            isRead: 'READ',
            readerId: Number(me),
          })),
        );
      return staged;
    });
    await publish(events);
    await pushUnreadOf(me, { chatId: where.chatId ?? null, groupChatId: where.groupChatId ?? null });
    return { read: readIds.length };
  };

  const messages = async (
    me: string,
    where: { chatId?: number; groupChatId?: number },
    page: { page: number; itemsPerPage: number; search?: string | undefined; beforeId?: number | undefined },
  ) => {
    if (where.chatId !== undefined) await chatOf(db, where.chatId, me);
    else await membersOf(db, where.groupChatId!, me);
    return listMessages(db, users.table, me, where, page);
  };

  return {
    db,
    users,
    emit,
    push,
    stage,
    publish,
    person,
    staff,
    openChat,
    chatOf,
    membersOf,
    send,
    edit,
    remove,
    markRead,
    unreadCounts,
    messages,
    loadMessage,
    nameSql,
  };
}

export type MessengerStore = ReturnType<typeof createMessengerStore>;
