import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer } from 'file-type';
import { ApiError } from '../errors.ts';

/** A file streamed to a temporary path, typed by its magic bytes and hashed. */
export interface ReceivedFile {
  id: string;
  temp: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
}

const SNIFF_BYTES = 4100;

/** The type of a file by its first bytes; text without a signature counts as text/plain. */
export async function sniff(head: Buffer): Promise<string> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) return detected.mime;
  if (head.includes(0)) return 'application/octet-stream';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 4)));
    return 'text/plain';
  } catch {
    return 'application/octet-stream';
  }
}

/**
 * Streams one uploaded part to `tempDir` (never whole in memory), hashing it and keeping
 * its first bytes to tell its type; a type outside `allowed` is refused (415). The entry is
 * pushed to `into` before streaming, so the caller can remove it whatever happens.
 */
export async function receiveFile(
  part: { file: Readable; filename: string },
  tempDir: string,
  allowed: Set<string>,
  into: ReceivedFile[],
): Promise<ReceivedFile> {
  const id = randomUUID();
  const temp = path.join(tempDir, id);
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      done(null, chunk);
    },
  });
  const entry: ReceivedFile = { id, temp, name: part.filename.slice(0, 255) || 'file', mime: '', size: 0, sha256: '' };
  into.push(entry);
  await pipeline(part.file, tap, createWriteStream(temp));
  const mime = await sniff(head);
  if (!allowed.has(mime))
    throw new ApiError(415, 'errors.unsupportedType', { details: { file: part.filename, detected: mime } });
  return Object.assign(entry, { mime, size, sha256: hash.digest('hex') });
}
