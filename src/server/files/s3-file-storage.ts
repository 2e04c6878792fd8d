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
import type { S3FilesConfig } from './s3-config.ts';

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
