import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import { mkdir, rm } from 'node:fs/promises';
import { ApiError, badInput, errorBodySchema } from '../../errors.ts';
import { receiveFile, type ReceivedFile } from '../../files/receive.ts';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MIME_TYPES, formatBytes } from '../../files/limits.ts';
import { filePart, handlerReadsBody, multipartBody, objectReply } from '../../reply-schemas.ts';
import { resolveFieldSchema } from '../../../shared/field-schema.ts';
import { setAt } from '../../../shared/pointer.ts';
import type { CapabilityOptions } from '../registry.ts';
import { withServerOwnedFrom } from '../../store/server-owned.ts';

/**
 * A form field's text as the record field's value: a number for an integer or number field
 * (text that is not one stays text, for the schema to refuse by name), else the text.
 * @example typedValue({ type: 'integer' }, '14') // 14
 */
export function typedValue(schema: { type?: unknown } | undefined, text: string): unknown {
  if (schema?.type === 'integer' || schema?.type === 'number') {
    const n = Number(text);
    return text.trim() !== '' && Number.isFinite(n) ? n : text;
  }
  return text;
}

/**
 * `POST /api{path}` for entities whose manifest declares `registerFromFile`: a record
 * registered from one uploaded file (multipart: `file` and the declared form fields). The file
 * is stored, then its row and the record (created through the store: validated, audited, the
 * file linked) are one transaction; anything refused removes the stored file, so the file and
 * the record land together or not at all.
 */
const registerFromFile: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  await app.register(multipart, { throwFileSizeLimit: true });
  for (const def of entities) {
    const spec = def.manifest.registerFromFile!;
    const fileRoot = spec.fileField.slice(1);
    const maxBytes = def.manifest.files?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    const allowed = new Set(def.manifest.files?.mimeTypes ?? DEFAULT_MIME_TYPES);
    const names = Object.keys(spec.fields);
    app.post(
      `/api${spec.path}`,
      {
        validatorCompiler: handlerReadsBody(),
        schema: {
          tags: [def.manifest.subject],
          summary: `Registers a ${def.id} record from one uploaded file (multipart: file, ${names.join(', ')})`,
          body: multipartBody(
            {
              file: filePart(`The file (at most ${formatBytes(maxBytes)})`),
              ...Object.fromEntries(names.map((n) => [n, { type: 'string', description: `→ ${spec.fields[n]}` }])),
            },
            ['file'],
          ),
          response: {
            200: objectReply(`The new ${def.id} record`),
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            413: errorBodySchema,
            415: errorBodySchema,
          },
        },
      },
      async (request) => {
        const { actor } = request;
        // Refused before a byte is stored: only who may create the record may upload for it.
        if (!actor.ability.can('create', def.manifest.subject))
          throw actor.id === null ? new ApiError(401, 'errors.unauthorized') : new ApiError(403, 'errors.forbidden');
        if (!request.isMultipart()) throw new ApiError(415, 'errors.unsupportedType');
        const storage = app.fileStorage;
        await mkdir(storage.tempDir, { recursive: true });
        const received: ReceivedFile[] = [];
        const cleanup = () => Promise.all(received.flatMap((f) => [rm(f.temp, { force: true }), storage.remove(f.id)]));
        const data: Record<string, unknown> = {};
        try {
          for await (const part of request.parts({
            limits: { fileSize: maxBytes, files: 1, fields: names.length + 2, fieldSize: 64 * 1024 },
          })) {
            if (part.type === 'file') {
              await receiveFile(part, storage.tempDir, allowed, received);
              continue;
            }
            const pointer = spec.fields[part.fieldname];
            const text = String(part.value);
            if (pointer && text !== '') setAt(data, pointer, typedValue(resolveFieldSchema(def.schema, pointer), text));
          }
          const file = received[0];
          if (!file) throw badInput([{ pointer: '/file', key: 'validation.required', params: {} }]);
          data[fileRoot] = [file.id];
          await storage.put(file.id, file.temp);
          return await app.db.transaction(async (tx) => {
            await tx.query(
              'INSERT INTO file_entity (id, kind, name, mime, size, sha256, owner) VALUES ($1, $2, $3, $4, $5, $6, $7)',
              [file.id, def.id, file.name, file.mime, file.size, file.sha256, actor.id],
            );
            return app.store.create(def.id, withServerOwnedFrom(def.schema, data), actor, {
              tx,
              locale: request.locale,
            });
          });
        } catch (error) {
          await cleanup();
          const code = (error as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE')
            throw new ApiError(413, 'errors.tooLarge', { params: { limit: formatBytes(maxBytes) } });
          if (code === 'FST_FILES_LIMIT') throw new ApiError(413, 'errors.tooManyFiles', { params: { limit: 1 } });
          throw error;
        }
      },
    );
  }
};

export default registerFromFile;
