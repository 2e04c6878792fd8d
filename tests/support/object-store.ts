import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import S3rver from 's3rver';
import type { S3FilesConfig } from '../../src/server/files/s3-config.ts';

/** The file stores every file test runs on: the local disk (the default) and an S3 bucket. */
export const FILE_STORES = ['disk', 's3'] as const;
export type FileStoreName = (typeof FILE_STORES)[number];

/** s3rver's one built-in account. */
const KEY = 'S3RVER';

/** An S3 emulator on loopback with one empty bucket, its objects in its own temporary directory. */
export interface TestObjectStore {
  /** What `buildApp({ filesS3 })` and the FILES_S3_* variables take. */
  filesS3: S3FilesConfig;
  /** The FILES_S3_* variables of a child process. */
  env: Record<string, string>;
  /** Every object key in the bucket. */
  keys(): Promise<string[]>;
  /** Whether the bucket holds `key` (one HEAD; s3rver's listing fails on an object whose upload was cut off). */
  has(key: string): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * Starts s3rver on 127.0.0.1 at a free port with the bucket `portal-files`.
 * @example const s3 = await startObjectStore(); await startTestApp('pglite', { filesS3: s3.filesS3 })
 */
export async function startObjectStore(): Promise<TestObjectStore> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'portal-s3-'));
  const bucket = 'portal-files';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const filesS3: S3FilesConfig = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKey: KEY,
    secretKey: KEY,
    region: 'us-east-1',
  };
  const client = new S3Client({
    endpoint: filesS3.endpoint,
    region: filesS3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: KEY, secretAccessKey: KEY },
  });
  return {
    filesS3,
    env: {
      FILES_S3_ENDPOINT: filesS3.endpoint,
      FILES_S3_BUCKET: bucket,
      FILES_S3_ACCESS_KEY: KEY,
      FILES_S3_SECRET_KEY: KEY,
      FILES_S3_REGION: filesS3.region,
    },
    async keys() {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        ContinuationToken = page.NextContinuationToken;
      } while (ContinuationToken);
      return keys;
    },
    has: (key) =>
      client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
        () => true,
        () => false,
      ),
    async stop() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Every file under a directory, recursively (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

/**
 * What an app keeps of files, sorted: the files under its files directory (on disk: the stored
 * contents and any temporary copies; with S3: temporary copies only) and its bucket's objects.
 */
export async function storedFiles(app: FastifyInstance, store?: TestObjectStore): Promise<string[]> {
  const onDisk = filesUnder(app.config.filesDir);
  const inBucket = store ? (await store.keys()).map((k) => `s3:${k}`) : [];
  return [...onDisk, ...inBucket].sort();
}
