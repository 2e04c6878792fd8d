import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../errors.ts';
import { idParam, replies } from '../../messenger/route-schemas.ts';
import type { MessengerKit } from './kit.ts';
import { photoIdSql } from '../../auth/user-directory.ts';

/**
 * Staff members' photos, to staff, whatever their rights on user records (uploads are the
 * organisation's routes: routes/files/photos.ts), and group chats' photos, to their members.
 */
const photos: FastifyPluginAsync<MessengerKit> = async (app, { m, userTable, me, staffWhere }) => {
  app.get<{ Params: { id: number } }>(
    '/api/employee/photo/:id',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'A staff member’s photo, to staff',
        params: idParam,
        response: replies.photo,
      },
    },
    async (request, reply) => {
      me(request);
      const { rows } = await app.db.query<{ photo: string | null; mime: string; size: number }>(
        `SELECT ${photoIdSql('u')} AS photo, f.mime, f.size FROM ${userTable} u JOIN file_entity f ON f.id::text = ${photoIdSql('u')} WHERE u.id = $1 AND ${staffWhere}`,
        [request.params.id],
      );
      const stream = rows[0]?.photo ? await app.fileStorage.get(rows[0].photo) : undefined;
      if (!stream) throw notFound();
      return reply
        .header('content-type', rows[0]!.mime)
        .header('content-length', rows[0]!.size)
        .header('x-content-type-options', 'nosniff')
        .send(stream);
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/groupChat/photo/:id',
    {
      schema: {
        tags: ['Messenger'],
        summary: 'The photo of a group chat, to its members',
        params: idParam,
        response: replies.photo,
      },
    },
    async (request, reply) => {
      await m.membersOf(app.db, request.params.id, me(request));
      const { rows } = await app.db.query<{ photo: string | null; mime: string; size: number }>(
        'SELECT g.photo::text, f.mime, f.size FROM group_chat g JOIN file_entity f ON f.id = g.photo WHERE g.id = $1',
        [request.params.id],
      );
      const stream = rows[0]?.photo ? await app.fileStorage.get(rows[0].photo) : undefined;
      if (!stream) throw notFound();
      return reply
        .header('content-type', rows[0]!.mime)
        .header('content-length', rows[0]!.size)
        .header('x-content-type-options', 'nosniff')
        .send(stream);
    },
  );
};

export default photos;
