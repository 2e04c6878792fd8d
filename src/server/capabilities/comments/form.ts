import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mkdir, rm } from 'node:fs/promises';
import { ApiError } from '../../errors.ts';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES, DEFAULT_MIME_TYPES, formatBytes } from '../../files/limits.ts';
import { receiveFile, type ReceivedFile } from '../../files/receive.ts';
import type { EntityManifest } from '../../../generated/meta.ts';

/** A comment form as read: its text fields and its files, streamed to storage (not yet in the table). */
export interface CommentForm {
  fields: Record<string, string>;
  files: ReceivedFile[];
  /** Removes the stored copies (on any failure after reading). */
  discard(): Promise<void>;
}

/** The file limits of an entity's comments: none when it declares no `comments.files`. */
export function commentFileLimits(manifest: EntityManifest): {
  maxFiles: number;
  maxBytes: number;
  allowed: Set<string>;
} {
  const files = manifest.comments?.files;
  return {
    maxFiles: files ? (files.maxFiles ?? DEFAULT_MAX_FILES) : 0,
    maxBytes: files?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    allowed: new Set(files?.mimeTypes ?? DEFAULT_MIME_TYPES),
  };
}

/**
 * Reads a comment form: JSON (`{text, parentId}`) or multipart (the same fields and `files`).
 * Files stream to disk and into storage (never whole in memory) under the entity's limits; a
 * file too large, one too many or of a type not allowed refuses the whole form and keeps none.
 */
export async function readCommentForm(
  app: FastifyInstance,
  request: FastifyRequest,
  manifest: EntityManifest,
): Promise<CommentForm> {
  const storage = app.fileStorage;
  const received: ReceivedFile[] = [];
  const discard = async () => {
    await Promise.all(received.flatMap((f) => [rm(f.temp, { force: true }), storage.remove(f.id)]));
  };
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) if (v !== null && v !== undefined) fields[k] = String(v);
    return { fields, files: [], discard };
  }
  const { maxFiles, maxBytes, allowed } = commentFileLimits(manifest);
  await mkdir(storage.tempDir, { recursive: true });
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxBytes, files: maxFiles + 1, fields: 5, fieldSize: 256 * 1024 },
    })) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      if (received.length >= maxFiles) {
        part.file.resume();
        throw new ApiError(413, 'errors.tooManyFiles', { params: { limit: maxFiles } });
      }
      await receiveFile(part, storage.tempDir, allowed, received);
    }
    // An empty file input sends one part without bytes: it is no attachment.
    for (const f of received.filter((x) => x.size === 0)) await rm(f.temp, { force: true });
    received.splice(0, received.length, ...received.filter((x) => x.size > 0));
    for (const f of received) await storage.put(f.id, f.temp);
  } catch (error) {
    await discard();
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError(413, 'errors.tooLarge', { params: { limit: formatBytes(maxBytes) } });
    if (code === 'FST_FILES_LIMIT') throw new ApiError(413, 'errors.tooManyFiles', { params: { limit: maxFiles } });
    throw error;
  }
  return { fields, files: received, discard };
}
