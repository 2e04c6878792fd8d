import fp from 'fastify-plugin';
import { createEntityStore } from '../store/entity-store.ts';
import { createReferenceService } from '../store/references.ts';
import { createLocalFileStorage } from '../files/file-storage.ts';

/** The store (the one write path), the reference-list cache and file storage. */
export default fp(
  async (app) => {
    const references = await createReferenceService(app.db);
    app.decorate('references', references);
    app.decorate('store', createEntityStore(app.db, app.definitions, app.tables, references, app.config.listCountCap));
    app.decorate('fileStorage', createLocalFileStorage(app.config.filesDir));
  },
  { name: 'store', dependencies: ['db'] },
);
