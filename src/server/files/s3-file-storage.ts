import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { FileStorage } from './file-storage.ts';

/** Where an S3-compatible object store is and how to sign in to it (FILES_S3_* variables). */
export interface S3FilesConfig {
  /** The store's URL, e.g. `http://minio:9000` (FILES_S3_ENDPOINT). */
  endpoint: string;
  /** The bucket the files go to; it must exist (FILES_S3_BUCKET). */
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** The signing region (FILES_S3_REGION, default us-east-1). */
  region: string;
}

/**
 * The object store of FILES_S3_*: all of endpoint, bucket and both keys, or none of them (then
 * files stay on the local disk); a partial set is a start-up error rather than a silent fallback.
 * @example s3FilesFromEnv({ FILES_S3_ENDPOINT: 'http://minio:9000', FILES_S3_BUCKET: 'files', FILES_S3_ACCESS_KEY: 'k', FILES_S3_SECRET_KEY: 's' })
 */
export function s3FilesFromEnv(env: NodeJS.ProcessEnv): S3FilesConfig | undefined {
  const names = ['FILES_S3_ENDPOINT', 'FILES_S3_BUCKET', 'FILES_S3_ACCESS_KEY', 'FILES_S3_SECRET_KEY'] as const;
  const given = names.filter((n) => env[n]);
  if (!given.length) return undefined;
  if (given.length < names.length)
    throw new Error(`FILES_S3_* is incomplete: ${names.filter((n) => !env[n]).join(', ')} missing`);
  return {
    endpoint: env.FILES_S3_ENDPOINT!,
    bucket: env.FILES_S3_BUCKET!,
    accessKey: env.FILES_S3_ACCESS_KEY!,
    secretKey: env.FILES_S3_SECRET_KEY!,
    region: env.FILES_S3_REGION || 'us-east-1',
  };
}

/** A missing object: S3 says NoSuchKey on GET and a bare 404 (NotFound) on HEAD. */
const isMissing = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/**
 * Stores each file as the object `<id>` of one bucket, so that every instance behind a balancer
 * reads what any of them received. Uploads are still received into `tempDir` on the local disk
 * (typed and hashed there) and sent with a known length.
 * Path-style addressing (`endpoint/bucket/key`), which MinIO and s3rver need; checksums only
 * where the API requires them, since emulators do not all read the SDK's chunked checksum
 * encoding.
 * @example createS3FileStorage({ endpoint: 'http://127.0.0.1:9000', bucket: 'portal-files', accessKey, secretKey, region: 'us-east-1' }, '/var/tmp/portal')
 */
export function createS3FileStorage(config: S3FilesConfig, tempDir: string): FileStorage & { close(): void } {
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: true,
    credentials: { accessKeyId: config.accessKey, secretAccessKey: config.secretKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = config.bucket;
  return {
    tempDir,
    async put(id, tempPath) {
      const { size } = await stat(tempPath);
      await client.send(
        new PutObjectCommand({ Bucket, Key: id, Body: createReadStream(tempPath), ContentLength: size }),
      );
      await rm(tempPath, { force: true });
    },
    async get(id) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: id }));
        return object.Body as Readable | undefined;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async head(id) {
      try {
        const object = await client.send(new HeadObjectCommand({ Bucket, Key: id }));
        return { size: object.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async remove(id) {
      // Deleting a missing object succeeds in S3, as `rm --force` does on disk.
      await client.send(new DeleteObjectCommand({ Bucket, Key: id }));
    },
    close: () => client.destroy(),
  };
}
