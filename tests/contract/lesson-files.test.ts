/**
 * Lesson files and videos (spec §9: "under 200 MB, else a too-large message") go through the
 * records' upload route streamed: a file one byte over the limit is refused with the spec's
 * message and nothing stays behind; a larger one is refused without the process ever holding
 * it (its memory does not grow by the file's size); a 199 MB video is stored and comes back
 * byte for byte. Sent over a real socket, from a body generated piece by piece, so that neither
 * side of the test holds a whole file either. One backend: this is about streams, not SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { formatBytes } from '../../src/server/files/limits.ts';
import { backends } from '../support/databases.ts';
import { signIn, startTestApp } from '../support/app.ts';

const ENTITY = 'project-lesson';
const MB = 1024 * 1024;
/** The head of an MP4 file (an ftyp box): the server tells the type by these bytes. */
const MP4_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2avc1mp41'),
]);
const CHUNK = Buffer.alloc(MB, 0x5a);

/** Sends one file of `size` bytes as multipart, written chunk by chunk; resolves with the reply and the file's hash. */
function upload(base: string, token: string, size: number): Promise<{ status: number; body: any; sha256: string }> {
  const boundary = '----lesson-upload';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="lesson.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/file-entity/save/${ENTITY}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'accept-language': 'en',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          body: JSON.parse(Buffer.concat(parts).toString()),
          sha256: hash.digest('hex'),
        }),
      );
    });
    // The server may answer (and close) before the whole body is sent: that is the point.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    let sent = 0;
    const write = () => {
      if (sent === 0) req.write(head);
      while (sent < size && !answered) {
        const piece = sent === 0 ? Buffer.concat([MP4_HEAD, CHUNK.subarray(MP4_HEAD.length)]) : CHUNK;
        const part = piece.subarray(0, Math.min(piece.length, size - sent));
        hash.update(part);
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', write);
      }
      if (!answered) req.end(tail);
    };
    write();
  });
}

const backend = backends()[0]!;
describe.skipIf(!backend.available)(`lesson files of 200 MB on ${backend.name}`, () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let base: string;
  let token: string;
  const limit = 200 * MB;
  beforeAll(async () => {
    ({ app, close } = await startTestApp(backend.name));
    token = (await signIn(app)).token;
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => close?.());

  const stored = () => {
    const dir = app.config.filesDir;
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.join(d.parentPath, d.name));
  };
  const rows = async () => (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM file_entity')).rows[0]!.n;

  it('declares 200 MB for lessons', () => {
    expect(app.definitions.entities.get(ENTITY)!.manifest.files?.maxFileBytes).toBe(limit);
  });

  it('refuses 200 MB + 1 byte with the too-large message and keeps nothing', async () => {
    // The storage already holds what first start seeds (the document templates): nothing is added to it.
    const [filesBefore, rowsBefore] = [stored(), await rows()];
    const res = await upload(base, token, limit + 1);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(`The file is too large (at most ${formatBytes(limit)})`);
    expect(res.body.message).toContain('200 MB');
    expect(stored()).toEqual(filesBefore);
    expect(await rows()).toBe(rowsBefore);
  });

  it('refuses a 210 MB file without holding it: memory does not grow by its size', async () => {
    global.gc?.();
    const filesBefore = stored();
    const before = process.memoryUsage().rss;
    let peak = before;
    const probe = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    try {
      const res = await upload(base, token, 210 * MB);
      expect(res.status).toBe(413);
    } finally {
      clearInterval(probe);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    // Streams hold a few chunks; a buffered file would add its 210 MB.
    expect(peak - before).toBeLessThan(100 * MB);
    expect(stored()).toEqual(filesBefore);
  });

  it('stores a 199 MB video and gives it back byte for byte, to play on the lesson page', async () => {
    const size = 199 * MB;
    const res = await upload(base, token, size);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const file = res.body.list[0] as { id: string; mime: string; size: number; sha256: string };
    expect(file).toMatchObject({ mime: 'video/mp4', size, sha256: res.sha256 });
    const created = await app.inject({
      method: 'POST',
      url: `/api/${ENTITY}/create`,
      payload: { title: 'Tender review lesson', files: [file.id] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const downloaded = await new Promise<{ status: number; type: string; sha256: string; size: number }>(
      (resolve, reject) => {
        http
          .get(`${base}/api/file-entity/get/${file.id}`, { headers: { authorization: `Bearer ${token}` } }, (r) => {
            const hash = createHash('sha256');
            let n = 0;
            r.on('data', (c: Buffer) => {
              hash.update(c);
              n += c.length;
            });
            r.on('end', () =>
              resolve({
                status: r.statusCode!,
                type: String(r.headers['content-type']),
                sha256: hash.digest('hex'),
                size: n,
              }),
            );
          })
          .on('error', reject);
      },
    );
    expect(downloaded).toEqual({ status: 200, type: 'video/mp4', sha256: res.sha256, size });
  });
});
