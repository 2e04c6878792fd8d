import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { mkdir, rm } from 'node:fs/promises';
import { receiveFile, type ReceivedFile } from '../../files/receive.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { Actor } from '../../store/entity-store.ts';
import type { EntityDefinition } from '../../../definitions/registry.ts';
import { findFileFields } from '../../store/record-schema.ts';
import { stampOnDownload } from '../../files/stamp-on-download.ts';
import { registerPhotoRoutes, type UploadedFile } from './photos.ts';
import {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_FILES,
  DEFAULT_MIME_TYPES,
  formatBytes,
  UPLOADS_PER_MINUTE,
} from '../../files/limits.ts';
import { errorBodySchema } from '../../errors.ts';
import { filePart, fileReply, handlerReadsBody, multipartBody } from '../../reply-schemas.ts';

interface FileRow {
  kind: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  owner: string | null;
  record_id: number | null;
}

/** A file id as PostgreSQL's uuid type reads it (hex digits in 8-4-4-4-12 groups). */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

const fileSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    mime: { type: 'string' },
    size: { type: 'integer' },
    sha256: { type: 'string' },
    removable: {
      type: 'boolean',
      description: 'The caller attached it: only the uploader may take a file out of its record.',
    },
  },
} as const;

/**
 * Uploads (`POST /api/file-entity/save/{entity}`, only by whoever may create or update
 * records of the entity, anonymous ones counted per address; streamed to disk, never
 * buffered whole, checked by magic bytes, hashed) and downloads (`GET /api/file-entity/get/{id}`, only to
 * those who may read the record the file belongs to, or to its uploader before that).
 */
const files: FastifyPluginAsync = async (app) => {
  await app.register(multipart, { throwFileSizeLimit: true });

  /** A file is readable exactly when its record is (the store applies the read rules), or by its uploader before it is linked. */
  const mayRead = async (file: FileRow, actor: Actor): Promise<boolean> => {
    if (file.record_id === null) return file.owner !== null && file.owner === actor.id;
    try {
      await app.store.get(file.kind, file.record_id, actor);
      return true;
    } catch (error) {
      if (!(error instanceof ApiError && [401, 403, 404].includes(error.statusCode))) throw error;
      // One's own photo shows as one's avatar even without the right to read its record.
      return actor.id !== null && (await app.authSessions.profileRecordId(actor.id, file.kind)) === file.record_id;
    }
  };

  /**
   * Streams the request's files to storage under the entity's limits and records them as
   * uploaded by the caller, not yet linked to a record; all or nothing.
   */
  const receive = async (
    request: FastifyRequest,
    def: EntityDefinition,
    filesAtMost?: number,
  ): Promise<UploadedFile[]> => {
    if (!request.isMultipart()) throw new ApiError(415, 'errors.unsupportedType');
    const maxFiles = Math.min(def.manifest.files?.maxFiles ?? DEFAULT_MAX_FILES, filesAtMost ?? Infinity);
    const maxBytes = def.manifest.files?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    const allowed = new Set(def.manifest.files?.mimeTypes ?? DEFAULT_MIME_TYPES);
    const storage = app.fileStorage;
    await mkdir(storage.tempDir, { recursive: true });
    const received: ReceivedFile[] = [];
    try {
      for await (const part of request.files({ limits: { fileSize: maxBytes, files: maxFiles + 1, fields: 10 } })) {
        if (received.length >= maxFiles) {
          part.file.resume();
          throw new ApiError(413, 'errors.tooManyFiles', { params: { limit: maxFiles } });
        }
        await receiveFile(part, storage.tempDir, allowed, received);
      }
      if (!received.length) throw new ApiError(400, 'errors.noFiles');
      for (const f of received) await storage.put(f.id, f.temp);
      await app.db.transaction(async (tx) => {
        for (const f of received) {
          await tx.query(
            'INSERT INTO file_entity (id, kind, name, mime, size, sha256, owner) VALUES ($1, $2, $3, $4, $5, $6, $7)',
            [f.id, def.id, f.name, f.mime, f.size, f.sha256, request.actor.id],
          );
        }
      });
    } catch (error) {
      // Nothing half-written: every temporary and stored copy of this request goes.
      await Promise.all(received.flatMap((f) => [rm(f.temp, { force: true }), storage.remove(f.id)]));
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE')
        throw new ApiError(413, 'errors.tooLarge', { params: { limit: formatBytes(maxBytes) } });
      if (code === 'FST_FILES_LIMIT') throw new ApiError(413, 'errors.tooManyFiles', { params: { limit: maxFiles } });
      throw error;
    }
    return received.map(({ id, name, mime, size, sha256 }) => ({ id, name, mime, size, sha256 }));
  };

  /**
   * Whether the actor may attach files now: to a record they name (`record`), when the entity's
   * edit rules let them change one of its file fields in its status; else for a new record,
   * when they may create one. Refused before the body is read, so nothing is stored.
   */
  const mustMayAttach = async (def: EntityDefinition, actor: Actor, record: number | undefined): Promise<void> => {
    const { ability, id } = actor;
    if (record === undefined) {
      if (ability.can('create', def.manifest.subject)) return;
      // One who may only change records names the record the files are for.
      if (ability.can('update', def.manifest.subject)) throw new ApiError(403, 'errors.uploadNeedsRecord');
      throw id === null ? new ApiError(401, 'errors.unauthorized') : new ApiError(403, 'errors.forbidden');
    }
    const rights = await app.store.rights(def.id, record, actor);
    const fileFields = findFileFields(def.schema).map((f) => `/${f.path.filter((p) => p !== '*').join('/')}`);
    if (!rights.update || !fileFields.some((f) => !rights.readOnly.some((r) => f === r || f.startsWith(`${r}/`))))
      throw new ApiError(403, 'errors.notEditable');
  };

  app.post<{ Params: { kind: string }; Querystring: { record?: number } }>(
    '/api/file-entity/save/:kind',
    {
      // Anonymous uploads are counted per address (signed-in staff are not): see rate-limit.ts.
      config: { publicRateLimit: { bucket: 'uploads', perMinute: UPLOADS_PER_MINUTE } },
      validatorCompiler: handlerReadsBody(),
      schema: {
        tags: ['Files'],
        summary:
          'Upload files for a new record of an entity (needs create on its subject; a guest only where access.json lets guests create it) or for the record named by `record` (needs its edit rules to let the caller change one of its file fields now)',
        params: { type: 'object', properties: { kind: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } } },
        querystring: {
          type: 'object',
          properties: { record: { type: 'integer', minimum: 1, maximum: 2147483647 }, lang: { type: 'string' } },
        },
        body: multipartBody(
          {
            files: {
              type: 'array',
              items: filePart('A file; its type is told by its first bytes'),
              description: `Up to the entity's limit (default ${DEFAULT_MAX_FILES} files of ${formatBytes(DEFAULT_MAX_FILE_BYTES)})`,
            },
          },
          ['files'],
        ),
        response: {
          200: { type: 'object', properties: { list: { type: 'array', items: fileSchema } } },
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          413: errorBodySchema,
          415: errorBodySchema,
        },
      },
    },
    async (request) => {
      const def = app.definitions.entities.get(request.params.kind);
      if (!def) throw notFound();
      // Files exist to be put into records: whoever may not put them into one has nothing to upload them for.
      await mustMayAttach(def, request.actor, request.query.record);
      return { list: await receive(request, def) };
    },
  );

  registerPhotoRoutes(app, receive, fileSchema);

  app.get<{ Querystring: { ids: string } }>(
    '/api/file-entity/info',
    {
      schema: {
        tags: ['Files'],
        summary: 'Names, types and sizes of files the caller may read (others are left out)',
        querystring: {
          type: 'object',
          required: ['ids'],
          additionalProperties: false,
          properties: { ids: { type: 'string', pattern: `^${UUID}(,${UUID}){0,49}$` }, lang: { type: 'string' } },
        },
        response: { 200: { type: 'object', properties: { list: { type: 'array', items: fileSchema } } } },
      },
    },
    async (request) => {
      const { rows } = await app.db.query<FileRow & { id: string }>(
        'SELECT id::text, kind, name, mime, size, sha256, owner, record_id FROM file_entity WHERE id = ANY($1::uuid[])',
        [request.query.ids.split(',')],
      );
      const readable = await Promise.all(rows.map((f) => mayRead(f, request.actor)));
      return {
        list: rows
          .filter((_, i) => readable[i])
          .map(({ id, name, mime, size, sha256, owner }) => ({
            id,
            name,
            mime,
            size,
            sha256,
            removable: owner !== null && owner === request.actor.id,
          })),
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/file-entity/get/:id',
    {
      schema: {
        tags: ['Files'],
        summary: 'Download a file (to whoever may read its record, or its uploader before that)',
        params: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } },
        response: { 200: fileReply('The file, as an attachment with its stored type'), 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { rows } = await app.db.query<FileRow>(
        'SELECT kind, name, mime, size, sha256, owner, record_id FROM file_entity WHERE id = $1',
        [request.params.id],
      );
      const file = rows[0];
      if (!file || !(await mayRead(file, request.actor))) throw notFound();
      const stream = await app.fileStorage.get(request.params.id);
      if (!stream) throw notFound();
      if (file.record_id !== null) {
        // The recipient's first download is a fact others count (manifest stampOnDownload); a
        // failed stamp is logged, not a reason to withhold the document from its recipient.
        await stampOnDownload(app, file.kind, Number(file.record_id), request.actor).catch((error: unknown) =>
          request.log.error({ err: error }, 'download stamp failed'),
        );
      }
      return reply
        .header('content-type', file.mime)
        .header('content-length', file.size)
        .header('etag', `"${file.sha256}"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .send(stream);
    },
  );
};

export default files;
