import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer } from 'file-type';

const SNIFF_BYTES = 4100;

/** One upload being received: filled in (mime, size, sha256) once its stream has ended. */
export interface ReceivedFile { id: string; temp: string; name: string; mime: string; size: number; sha256: string }

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
 * Streams one multipart file to a temporary file in `tempDir`, hashing it and keeping its
 * first bytes to tell its type. `track` gets the entry before any byte is written, so the
 * caller can remove the temporary file whatever happens next.
 */
export async function receiveFile(part: { file: Readable; filename: string }, tempDir: string, track: (f: ReceivedFile) => void): Promise<ReceivedFile> {
  const id = randomUUID();
  const entry: ReceivedFile = { id, temp: path.join(tempDir, id), name: part.filename.slice(0, 255) || 'file', mime: '', size: 0, sha256: '' };
  track(entry);
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
  await pipeline(part.file, tap, createWriteStream(entry.temp));
  Object.assign(entry, { mime: await sniff(head), size, sha256: hash.digest('hex') });
  return entry;
}
