import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError, errorBodySchema, notFound } from '../../errors.ts';
import type { Box } from '../../notify/inbox.ts';
import { createNotificationView, notificationItem } from './view.ts';
import sendNote from './send.ts';

const pageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    box: { type: 'string', enum: ['all', 'incoming', 'outgoing'], default: 'all' },
    unread: { type: 'boolean', description: 'true: only my unread; false: the rest' },
    page: { type: 'integer', minimum: 1, default: 1 },
    itemsPerPage: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    lang: { type: 'string' },
  },
} as const;
const listReply = {
  type: 'object',
  required: ['list', 'total'],
  properties: { list: { type: 'array', items: notificationItem }, total: { type: 'integer' } },
} as const;
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
const unreadReply = { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } } as const;

interface PageQuery {
  box?: Box;
  unread?: boolean;
  page?: number;
  itemsPerPage?: number;
}

/**
 * In-app notifications (spec §2 "notifications: all, incoming, outgoing"; notify/inbox.ts):
 * the signed-in user's boxes, the bell's unread count, read marks, and notes sent by hand
 * (./send.ts). A row is seen only by its recipient (incoming) and its sender (outgoing);
 * anyone else's is 404. Texts are rendered in the reader's language; the record link only
 * where the reader may read the record.
 */
const notifications: FastifyPluginAsync = async (app) => {
  const inbox = app.notify.inbox;
  const view = createNotificationView(app);
  const signedIn = (request: FastifyRequest) => {
    const actor = request.actor;
    if (!actor?.id || !/^[1-9][0-9]*$/.test(actor.id)) throw new ApiError(401, 'errors.sessionExpired');
    return actor;
  };

  const listRoute = (url: string, fixed: Box | undefined, summary: string) =>
    app.get<{ Querystring: PageQuery }>(
      url,
      {
        schema: {
          tags: ['Notifications'],
          summary,
          querystring: pageQuery,
          response: { 200: listReply, 401: errorBodySchema },
        },
      },
      async (request) => {
        const actor = signedIn(request);
        const q = request.query;
        const query = {
          box: fixed ?? q.box ?? 'all',
          page: q.page ?? 1,
          itemsPerPage: q.itemsPerPage ?? 20,
          ...(q.unread === undefined ? {} : { unread: q.unread }),
        };
        const { rows, total } = await inbox.list(actor.id!, query);
        return { list: await view(actor, request.locale, rows), total };
      },
    );
  listRoute('/api/notifications', undefined, 'My notifications, newest first: box all (default), incoming or outgoing');
  listRoute(
    '/api/income-notifications',
    'incoming',
    'The notifications I received (= /api/notifications?box=incoming)',
  );
  listRoute('/api/outgoing-notifications', 'outgoing', 'The notifications I sent (= /api/notifications?box=outgoing)');

  app.get(
    '/api/notifications/unread-count',
    {
      schema: {
        tags: ['Notifications'],
        summary: 'How many notifications I have not read (the header bell); also pushed live on `notification`',
        response: { 200: unreadReply },
      },
    },
    // The bell shows 0 rather than an error (spec §8): a visitor simply has none.
    async (request) =>
      request.actor?.id && /^[1-9][0-9]*$/.test(request.actor.id)
        ? { count: await inbox.unreadCount(request.actor.id) }
        : { count: 0 },
  );

  app.get<{ Params: { id: number } }>(
    '/api/notifications/:id',
    {
      schema: {
        tags: ['Notifications'],
        summary: 'One of my notifications (received or sent); anyone else’s is 404',
        params: idParams,
        response: { 200: notificationItem, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const actor = signedIn(request);
      const row = await inbox.get(actor.id!, request.params.id);
      if (!row) throw notFound();
      return (await view(actor, request.locale, [row]))[0];
    },
  );

  app.post<{ Params: { id: number } }>(
    '/api/notifications/:id/read',
    {
      schema: {
        tags: ['Notifications'],
        summary: 'Marks a notification I received as read (the first time stays); 404 if it is not mine',
        params: idParams,
        response: { 200: unreadReply, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const actor = signedIn(request);
      if (!(await inbox.markRead(actor.id!, request.params.id))) throw notFound();
      await app.notifications.tell([actor.id!], 'READ');
      return { count: await inbox.unreadCount(actor.id!) };
    },
  );

  app.post(
    '/api/notifications/read-all',
    {
      schema: {
        tags: ['Notifications'],
        summary: 'Marks all my notifications read',
        response: { 200: unreadReply, 401: errorBodySchema },
      },
    },
    async (request) => {
      const actor = signedIn(request);
      await inbox.markAllRead(actor.id!);
      await app.notifications.tell([actor.id!], 'READ');
      return { count: 0 };
    },
  );

  await app.register(sendNote);
};

export default notifications;
