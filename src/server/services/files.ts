import fp from 'fastify-plugin';
import { createLocalFileStorage, FILE_TABLES, type FileStorage } from '../files/file-storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploaded files' contents live (the local disk under FILES_DIR). */
    fileStorage: FileStorage;
  }
}

/** What is known of each file (`file_entity`). */
export const migrations = [FILE_TABLES];

/** File storage: uploads, attachments and photos are kept here, their rows in `file_entity`. */
export default fp(
  async (app) => {
    app.decorate('fileStorage', createLocalFileStorage(app.config.filesDir));
  },
  { name: 'files' },
);
