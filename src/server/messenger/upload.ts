import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mkdir, rm } from 'node:fs/promises';
import { ApiError } from '../errors.ts';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MIME_TYPES } from '../files/limits.ts';
import { receiveFile, type ReceivedFile } from '../files/receive.ts';

export const MESSENGER_FILE_KIND = 'chat-message';

/**
 * A messenger form: its text fields and at most one file, stored like every upload (type by
 * magic bytes, hashed, the default size and type limits) with the caller as its owner.
 * JSON bodies are accepted too (no file then).
 */
export async function readMessengerForm(
  app: FastifyInstance,
  request: FastifyRequest,
  me: string | null,
  kind = MESSENGER_FILE_KIND,
): Promise<{ fields: Record<string, string>; fileId?: string; mime?: string }> {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    return {
      fields: Object.fromEntries(
        Object.entries(body)
          .filter(([, v]) => v !== null && v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      ),
    };
  }
  const fields: Record<string, string> = {};
  const storage = app.fileStorage;
  await mkdir(storage.tempDir, { recursive: true });
  let file: ReceivedFile | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: DEFAULT_MAX_FILE_BYTES, files: 1, fields: 20 } })) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      const into: ReceivedFile[] = [];
      // The entry is known before any byte is written, so the catch below can remove it.
      const receiving = receiveFile(part, storage.tempDir, new Set(DEFAULT_MIME_TYPES), into);
      file = into[0];
      await receiving;
    }
    if (file && file.size === 0) {
      await rm(file.temp, { force: true });
      file = undefined;
    }
    if (file) {
      await storage.put(file.id, file.temp);
      await app.db.query(
        'INSERT INTO file_entity (id, kind, name, mime, size, sha256, owner) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [file.id, kind, file.name, file.mime, file.size, file.sha256, me],
      );
    }
  } catch (error) {
    if (file) await Promise.all([rm(file.temp, { force: true }), storage.remove(file.id)]);
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError(413, 'errors.tooLarge', { params: { limit: `${DEFAULT_MAX_FILE_BYTES / 1024 / 1024} MB` } });
    if (code === 'FST_FILES_LIMIT') throw new ApiError(413, 'errors.tooManyFiles', { params: { limit: 1 } });
    throw error;
  }
  return file ? { fields, fileId: file.id, mime: file.mime } : { fields };
}
