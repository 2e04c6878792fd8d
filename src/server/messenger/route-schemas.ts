import { errorBodySchema } from '../errors.ts';
import { fileReply, filePart, objectReply, pageReply } from '../reply-schemas.ts';

/** Request and reply schemas of the messenger's REST routes (routes/messenger/). */

export const paging = {
  type: 'object',
  additionalProperties: true,
  properties: {
    page: { type: 'integer', minimum: 0, default: 0 },
    itemsPerPage: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
    beforeId: { type: 'integer', minimum: 1 },
  },
} as const;
export const searchQuery = {
  type: 'object',
  properties: { search: { type: 'string', maxLength: 200 }, lang: { type: 'string' } },
} as const;
export const idParam = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 } },
} as const;
export const idList = { type: 'array', maxItems: 500, items: { type: 'integer', minimum: 1 } } as const;
export const editBody = {
  type: 'object',
  required: ['id', 'message'],
  additionalProperties: true,
  properties: { id: { type: 'integer', minimum: 1 }, message: { type: 'string', maxLength: 10_000 } },
} as const;
export const membersBody = {
  type: 'object',
  required: ['memberIds'],
  additionalProperties: false,
  properties: { memberIds: { ...idList, minItems: 1 } },
} as const;

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
/** A message as the routes and the live socket send it. */
const message = objectReply(
  'A message: id, chatId or groupChatId, sender, text, file, replyTo, forwardedFrom, edited, createdAt',
  { id: { type: 'integer' } },
);
/** A group chat: id, name, photo, ownerId, member count and my unread count. */
const group = objectReply('A group chat: id, name, photo, ownerId, count, unreadCount', {
  id: { type: 'integer' },
  name: { type: 'string' },
});

/** Replies by kind, each with the error answers every messenger route may give. */
export const replies = {
  contacts: {
    200: pageReply(
      'Staff one may write to, with the direct chat if there is one (employeeId, names, uploadPath, chatId)',
    ),
    ...errors,
  },
  chats: { 200: pageReply('Direct chats: chatId, the other person, the last message and my unread count'), ...errors },
  chat: { 200: objectReply('The direct chat', { chatId: { type: 'integer' } }), ...errors },
  messages: { 200: pageReply('Messages, oldest to newest within the page', message), ...errors },
  message: { 200: message, ...errors },
  deleted: { 200: objectReply('Deleted', { deleted: { type: 'boolean' } }), ...errors },
  read: { 200: objectReply('How many messages were marked read', { read: { type: 'integer' } }), ...errors },
  unread: { 200: objectReply('Unread messages: total, per chat and per group chat', { total: { type: 'integer' } }) },
  unreadTotal: { 200: { description: 'The number of unread messages', type: 'integer' } },
  notified: { 200: objectReply('How many security users were told', { notified: { type: 'integer' } }), ...errors },
  counters: { 200: objectReply('The header counters by name'), ...errors },
  file: { 200: fileReply('The file, as an attachment'), ...errors },
  photo: { 200: fileReply('The image'), ...errors },
  group: { 200: group, ...errors },
  groups: { 200: pageReply('My group chats, with the last message', group), ...errors },
  members: { 200: pageReply('Members: employeeId, names, uploadPath'), ...errors },
} as const;

/**
 * A messenger form: JSON fields, or multipart fields with at most one file. A field named
 * `…Id` or `id` is a positive integer (sent as text in multipart); `required` lists what the
 * route cannot do without.
 */
export const formBody = (fields: Record<string, string>, required: string[] = []) => {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, description]) => [
      name,
      /(^id|Id)$/.test(name) ? { type: 'integer', minimum: 1, description } : { type: 'string', description },
    ]),
  );
  return {
    content: {
      'application/json': { schema: { type: 'object', properties, required } },
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { ...properties, file: filePart('At most one file (default types and size)') },
          required,
        },
      },
    },
  };
};
