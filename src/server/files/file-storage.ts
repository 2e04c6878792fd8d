import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Migration } from '../db/migrations.ts';

/** What is known of each stored file: its record (null until linked), its uploader, type, size and hash (db/migrations.ts). */
export const FILE_TABLES: Migration = {
  name: 'files',
  ddl: [
    `CREATE TABLE IF NOT EXISTS file_entity (
    id uuid PRIMARY KEY,
    kind text NOT NULL,
    name text NOT NULL,
    mime text NOT NULL,
    size bigint NOT NULL,
    sha256 text NOT NULL,
    owner text,
    record_id bigint,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
    `CREATE INDEX IF NOT EXISTS ix_file_entity_record ON file_entity (kind, record_id)`,
    // Files the server made for a record (generated documents) belong to it without a file
    // field naming them: a write of the record leaves them linked.
    `ALTER TABLE file_entity ADD COLUMN IF NOT EXISTS generated boolean NOT NULL DEFAULT false`,
  ],
};

/** What the store knows of one stored content without reading it. */
export interface StoredHead {
  size: number;
}

/**
 * Where file contents live: the local disk (the embedded default) or an S3-compatible object
 * store (`s3-file-storage.ts`, for several instances). Uploads are received into `tempDir`
 * first (typed and hashed there), then handed over with `put`.
 */
export interface FileStorage {
  /** Takes ownership of a fully written temporary file and stores it under `id`. */
  put(id: string, tempPath: string): Promise<void>;
  /** Opens the stored content, or undefined when it is missing. */
  get(id: string): Promise<Readable | undefined>;
  /** The stored content's size, or undefined when it is missing. */
  head(id: string): Promise<StoredHead | undefined>;
  /** Removes the content; removing a missing one is not an error. */
  remove(id: string): Promise<void>;
  /** A local directory for temporary files (on the same volume as the disk store). */
  readonly tempDir: string;
}

/** Stores files as `<dir>/<first two chars of id>/<id>`. */
export function createLocalFileStorage(dir: string): FileStorage {
  const root = path.resolve(dir);
  const where = (id: string): string => path.join(root, id.slice(0, 2), id);
  return {
    tempDir: path.join(root, 'tmp'),
    async put(id, tempPath) {
      await mkdir(path.dirname(where(id)), { recursive: true });
      try {
        await rename(tempPath, where(id));
      } catch {
        // Another volume: copy, then drop the temporary file.
        await copyFile(tempPath, where(id));
        await rm(tempPath, { force: true });
      }
    },
    async get(id) {
      // Opened before answering, so that a missing file is undefined rather than a stream error.
      const handle = await open(where(id), 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      return handle?.createReadStream();
    },
    async head(id) {
      const found = await stat(where(id)).catch(() => undefined);
      return found?.isFile() ? { size: found.size } : undefined;
    },
    remove: (id) => rm(where(id), { force: true }),
  };
}
