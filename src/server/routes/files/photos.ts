import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../../errors.ts';
import { createAbility } from '../../../shared/ability.ts';
import type { Actor } from '../../auth/access.ts';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import { filePart, handlerReadsBody, multipartBody } from '../../reply-schemas.ts';
import { setAt } from '../../../shared/pointer.ts';

/** A stored upload as the API returns it. */
export interface UploadedFile {
  id: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
}

type Receive = (request: FastifyRequest, def: EntityDefinition, filesAtMost?: number) => Promise<UploadedFile[]>;

/**
 * Photo uploads of the spec (`POST /file-entity/save/employee-photo/{id}` and
 * `…/employee-photo/for-profile`), for every manifest that declares `photo.route`:
 * `/{route}/{id}` puts one image into that record's photo field (the caller needs update on
 * it); `/{route}/for-profile` into the signed-in user's own record — their staff card, or
 * their user record when they have none. The previous photo is unlinked; the reply carries
 * the new avatar's `uploadPath`.
 */
export function registerPhotoRoutes(app: FastifyInstance, receive: Receive, fileSchema: object): void {
  const byRoute = new Map<string, EntityDefinition>();
  for (const def of app.definitions.entities.values())
    if (def.manifest.photo?.route) byRoute.set(def.manifest.photo.route, def);
  const access = app.definitions.access;
  const body = multipartBody({ file: filePart('One image') }, ['file']);
  const reply = {
    200: {
      type: 'object',
      properties: {
        list: { type: 'array', items: fileSchema },
        uploadPath: { type: 'string' },
        recordId: { type: 'integer' },
      },
    },
  };

  /** Puts the uploaded file into the record's photo field through the store (validated, audited). */
  const attach = async (def: EntityDefinition, recordId: number, file: UploadedFile, actor: Actor) => {
    const { rows } = await app.db.query<{ data: Record<string, unknown>; version: number }>(
      `SELECT data, version FROM ${app.tables.get(def.id)!.table} WHERE id = $1`,
      [recordId],
    );
    if (!rows[0]) throw notFound();
    const data = { ...rows[0].data, version: rows[0].version };
    setAt(data, def.manifest.photo!.field, [file.id]);
    await app.store.update(def.id, recordId, data, actor);
    return { list: [file], uploadPath: `/api/file-entity/get/${file.id}`, recordId };
  };

  app.post<{ Params: { route: string } }>(
    '/api/file-entity/save/:route/for-profile',
    {
      schema: {
        tags: ['Files'],
        summary: "Upload the signed-in user's own photo (their staff card's, else their user record's); one image",
        params: { type: 'object', properties: { route: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } } },
        body,
        response: reply,
      },
      validatorCompiler: handlerReadsBody(),
    },
    async (request) => {
      const actor = request.actor;
      if (!actor.id) throw new ApiError(401, 'errors.unauthorized');
      const named = byRoute.get(request.params.route);
      if (!named) throw notFound();
      const userDef = access ? app.definitions.entities.get(access.userEntity) : undefined;
      let target: { def: EntityDefinition; id: number } | undefined;
      for (const def of [named, userDef]) {
        if (!def?.manifest.photo) continue;
        const id = await app.authSessions.profileRecordId(actor.id, def.id);
        if (id !== undefined) {
          target = { def, id };
          break;
        }
      }
      if (!target) throw new ApiError(404, 'errors.noProfileRecord');
      const [file] = await receive(request, target.def, 1);
      // One's own record: allowed to this one change whatever the roles say, and audited as the user.
      const subject = target.def.manifest.subject;
      const self: Actor = {
        ...actor,
        scope: 'ALL',
        trusted: true,
        ability: createAbility([
          { action: 'read', subject },
          { action: 'update', subject },
        ]),
      };
      return attach(target.def, target.id, file!, self);
    },
  );

  app.post<{ Params: { route: string; id: number } }>(
    '/api/file-entity/save/:route/:id',
    {
      schema: {
        tags: ['Files'],
        summary: 'Upload the photo of one record (needs update on its subject); one image',
        params: {
          type: 'object',
          properties: { route: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' }, id: { type: 'integer', minimum: 1 } },
        },
        body,
        response: reply,
      },
      validatorCompiler: handlerReadsBody(),
    },
    async (request) => {
      const def = byRoute.get(request.params.route);
      if (!def) throw notFound();
      // Rights and sight of the record are checked before anything is stored: the role's update,
      // and the record's edit rules for its photo field in its status.
      await app.store.get(def.id, request.params.id, request.actor);
      if (!request.actor.ability.can('update', def.manifest.subject))
        throw request.actor.id ? new ApiError(403, 'errors.forbidden') : new ApiError(401, 'errors.unauthorized');
      const rights = await app.store.rights(def.id, request.params.id, request.actor);
      const field = def.manifest.photo!.field;
      if (!rights.update || rights.readOnly.some((r) => field === r || field.startsWith(`${r}/`)))
        throw new ApiError(403, 'errors.notEditable');
      const [file] = await receive(request, def, 1);
      return attach(def, request.params.id, file!, request.actor);
    },
  );
}
