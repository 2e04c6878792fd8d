/**
 * The messenger methods of the data provider (spec §7 Messenger): chats, group chats and
 * colleagues; a chat's messages page by page; sending, editing, deleting, forwarding and
 * read marks; a group's name, photo and members. Live events come over the socket (live.ts).
 */
import type { HttpClient } from '../http.ts';

/** One message as the REST routes and the live channels carry it. */
export interface Message {
  id: number;
  chatId: number | null;
  groupChatId: number | null;
  message: string;
  isRead: 'READ' | 'UNREAD';
  edited: boolean;
  ownerId: number;
  ownerName: string;
  file: { id: string; name: string; mime: string; size: number } | null;
  replyTo: { id: number; message: string; ownerId: number } | null;
  forwardedFrom?: number | null;
  createdAt: string;
}
/** A colleague one may write to; `chatId` once a direct chat with them exists. */
export interface Contact {
  employeeId: number;
  firstName: string;
  lastName: string;
  uploadPath: string | null;
  chatId: number | null;
}
/** A direct chat in the list: the colleague, the last message and the unread count. */
export interface ChatRow extends Contact {
  chatId: number;
  lastMessage: string | null;
  unreadCount: number;
}
/** A group chat in the list. */
export interface GroupRow {
  id: number;
  name: string;
  photo: string | null;
  count: number;
  unreadCount: number;
  lastMessage: string | null;
  ownerId: number;
}
/** A page of rows (`{list, total}`), as every messenger list answers. */
export interface MessengerPage<T> {
  list: T[];
  total: number;
}
/** A direct chat or a group chat, by id. */
export interface ChatRef {
  kind: 'chat' | 'group';
  id: number;
}
/** Which rows of a list: the first `itemsPerPage`, optionally only those matching `search`. */
export interface MessengerQuery {
  itemsPerPage: number;
  search?: string | undefined;
}
/** Where a forwarded message goes: a group chat, or a colleague (their direct chat, made on first use). */
export type ForwardTo = { kind: 'group'; id: number } | { kind: 'person'; id: number };
/** A new message: its text, the author, the message it answers and an attachment. */
export interface NewMessage {
  text: string;
  ownerId?: number | null;
  replyTo?: number | undefined;
  file?: File | undefined;
}

export interface MessengerMethods {
  /** The user's direct chats. */
  getChats(query: MessengerQuery): Promise<MessengerPage<ChatRow>>;
  /** The group chats the user is in. */
  getGroupChats(query: MessengerQuery): Promise<MessengerPage<GroupRow>>;
  /** Colleagues one may write to. */
  getContacts(query: MessengerQuery): Promise<MessengerPage<Contact>>;
  /** The direct chat with a colleague, made on first use; answers its id. */
  openChat(employeeId: number): Promise<{ chatId: number }>;
  /** A chat's messages, newest page first: older than `beforeId` when given, or those matching `search`. */
  getMessages(
    chat: ChatRef,
    query: MessengerQuery & { beforeId?: number | undefined },
  ): Promise<MessengerPage<Message>>;
  /** Marks the chat's messages to the user read. */
  markRead(chat: ChatRef): Promise<unknown>;
  /** Sends a message (multipart: the text and an optional file), or a reply to `replyTo`. */
  sendMessage(chat: ChatRef, message: NewMessage): Promise<unknown>;
  editMessage(id: number, text: string): Promise<unknown>;
  deleteMessage(id: number): Promise<unknown>;
  /** Copies a message to a group chat or a colleague (the copy names where it came from). */
  forwardMessage(id: number, to: ForwardTo): Promise<unknown>;
  createGroup(name: string, memberIds: number[]): Promise<GroupRow>;
  renameGroup(id: number, name: string): Promise<unknown>;
  /** A new photo of a group (its creator only). */
  uploadGroupPhoto(id: number, file: File): Promise<unknown>;
  getGroupMembers(id: number, query: MessengerQuery): Promise<MessengerPage<Contact>>;
  addGroupMembers(id: number, memberIds: number[]): Promise<unknown>;
  removeGroupMembers(id: number, memberIds: number[]): Promise<unknown>;
  deleteGroup(id: number): Promise<unknown>;
}

/** The body and query of a list request: always the first page. */
const page = ({ itemsPerPage, search }: MessengerQuery) => ({
  body: { page: 0, itemsPerPage },
  query: { search: search || undefined },
});
/** The field a message body names its chat by. */
const chatField = (chat: ChatRef) => (chat.kind === 'chat' ? 'chatId' : 'groupChatId');

/** Creates the messenger methods over an HTTP client. */
export function createMessengerMethods(http: HttpClient): MessengerMethods {
  const post = <T>(path: string, body: unknown): Promise<T> => http.request<T>('POST', path, { body });
  return {
    getChats: (query) => http.request('POST', '/api/chat/list', page(query)),
    getGroupChats: (query) => http.request('POST', '/api/groupChat/list', page(query)),
    getContacts: (query) => http.request('POST', '/api/employee/get-by-chat', page(query)),
    openChat: (employeeId) => http.request('POST', `/api/chat/create/${employeeId}`),
    getMessages: (chat, { itemsPerPage, beforeId, search }) =>
      http.request(
        'POST',
        `${chat.kind === 'chat' ? '/api/chat-message/get-by-chatId' : '/api/groupChat/get-by-chatId'}/${chat.id}`,
        {
          body: { page: 0, itemsPerPage, ...(beforeId ? { beforeId } : {}) },
          ...(search ? { query: { search } } : {}),
        },
      ),
    markRead: (chat) => post('/api/chat-message/make-read', { [chatField(chat)]: chat.id }),
    sendMessage: (chat, m) => {
      const form = new FormData();
      form.set(chatField(chat), String(chat.id));
      form.set('message', m.text);
      if (m.ownerId) form.set('ownerId', String(m.ownerId));
      if (m.replyTo) form.set('id', String(m.replyTo));
      if (m.file) form.set('file', m.file);
      const path = m.replyTo
        ? '/api/chat-message/reply-message'
        : chat.kind === 'chat'
          ? '/api/chat-message/sendMessage'
          : '/api/groupChat/chat-message/sendMessage';
      return http.request('POST', path, { form });
    },
    editMessage: (id, text) => post('/api/chat-message/edit', { id, message: text }),
    deleteMessage: (id) => http.request('DELETE', `/api/chat-message/delete/${id}`),
    forwardMessage: (id, to) =>
      post('/api/chat-message/forward-message', {
        id,
        ...(to.kind === 'group' ? { groupChatId: to.id } : { receiverId: to.id }),
      }),
    createGroup: (name, memberIds) => post('/api/groupChat/create', { name, memberIds }),
    renameGroup: (id, name) => post('/api/groupChat/edit', { id, name }),
    uploadGroupPhoto: (id, file) => {
      const form = new FormData();
      form.set('groupChatId', String(id));
      form.set('file', file);
      return http.request('POST', '/api/groupChat/uploadPhoto', { form });
    },
    getGroupMembers: (id, query) => http.request('POST', `/api/groupChat/members/${id}`, page(query)),
    addGroupMembers: (id, memberIds) => post(`/api/groupChat/add-members/${id}`, { memberIds }),
    removeGroupMembers: (id, memberIds) => post(`/api/groupChat/delete-members/${id}`, { memberIds }),
    deleteGroup: (id) => post('/api/groupChat/delete', { id }),
  };
}
