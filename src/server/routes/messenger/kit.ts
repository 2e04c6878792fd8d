import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { MESSENGER_SUBJECT } from '../../messenger/counters.ts';
import { handlerReadsBody } from '../../reply-schemas.ts';
import { photoIdSql } from '../../auth/user-directory.ts';

/** The paging body of the messenger's lists (`page` 0-based, or messages before `beforeId`). */
export interface Paging {
  page: number;
  itemsPerPage: number;
  beforeId?: number;
}

/**
 * What the messenger's route plugins share: the messenger service, the caller as a staff
 * member, SQL pieces over the user table and the handling of forms with a file.
 */
export function createMessengerKit(app: FastifyInstance) {
  const m = app.messenger;
  const userTable = app.users.table;
  return {
    m,
    userTable,
    /** The signed-in staff member making the request. */
    me(request: FastifyRequest): string {
      const actor = request.actor;
      if (!actor?.id) throw new ApiError(401, 'errors.sessionExpired');
      if (actor.isOuter || !actor.ability.can('read', MESSENGER_SUBJECT)) throw new ApiError(403, 'errors.forbidden');
      return actor.id;
    },
    /** Users of the user table `u` who are staff and may sign in. */
    staffWhere: app.users.staffWhere('u'),
    /** The avatar URL of the user row `alias`, or null. */
    photoPath: (alias: string) =>
      `CASE WHEN ${photoIdSql(alias)} IS NULL THEN NULL ELSE '/api/employee/photo/' || ${alias}.id END`,
    /** A positive integer form field, or undefined when empty; 400 at `pointer` otherwise. */
    int(v: string | undefined, pointer: string): number | undefined {
      if (v === undefined || v === '') return undefined;
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n < 1)
        throw new ApiError(400, 'errors.invalidInput', {
          fieldErrors: [{ pointer, key: 'validation.integer', params: {} }],
        });
      return n;
    },
    /** A search term as an ILIKE pattern (its wildcards escaped), or null. */
    like: (s: string | undefined) => (s ? `%${s.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null),
    /** A list's paging and search. */
    page: (request: FastifyRequest<{ Querystring: { search?: string }; Body: Paging }>) => ({
      page: request.body?.page ?? 0,
      itemsPerPage: request.body?.itemsPerPage ?? 20,
      search: request.query.search?.trim() || undefined,
      beforeId: request.body?.beforeId,
    }),
    /** A 400 naming a required form field. */
    required: (pointer: string) =>
      new ApiError(400, 'errors.invalidInput', { fieldErrors: [{ pointer, key: 'validation.required', params: {} }] }),
    /** Runs what a form asks with its file stored; a refused form takes its file away again (nothing half-written). */
    async withFile<T>(fileId: string | undefined, act: () => Promise<T>): Promise<T> {
      try {
        return await act();
      } catch (error) {
        if (fileId) {
          await app.db.query('DELETE FROM file_entity WHERE id = $1', [fileId]);
          await app.fileStorage.remove(fileId);
        }
        throw error;
      }
    },
    // Forms are read by the handler (JSON or multipart with a file): the body schemas document them.
    form: { validatorCompiler: handlerReadsBody() },
  };
}

/** The options of each messenger route plugin. */
export type MessengerKit = ReturnType<typeof createMessengerKit>;
