import path from 'node:path';
import fp from 'fastify-plugin';
import { createLocalFileStorage, FILE_TABLES, type FileStorage } from '../files/file-storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploaded files' contents live: the local disk under FILES_DIR, or the FILES_S3_* bucket. */
    fileStorage: FileStorage;
  }
}

/** What is known of each file (`file_entity`). */
export const migrations = [FILE_TABLES];

/** File storage: uploads, attachments and photos are kept here, their rows in `file_entity`. */
export default fp(
  async (app) => {
    const { filesS3, filesDir } = app.config;
    if (!filesS3) {
      app.decorate('fileStorage', createLocalFileStorage(filesDir));
      return;
    }
    // Loaded only here: an instance on the local disk never loads the AWS SDK.
    const { createS3FileStorage } = await import('../files/s3-file-storage.ts');
    const storage = createS3FileStorage(filesS3, path.join(filesDir, 'tmp'));
    app.decorate('fileStorage', storage);
    app.addHook('onClose', async () => storage.close());
  },
  { name: 'files' },
);
