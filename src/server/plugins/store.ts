import fp from 'fastify-plugin';
import { createEntityStore } from '../store/entity-store.ts';
import { withEntityRefs } from '../store/entity-refs.ts';
import { createReferenceService } from '../store/references.ts';
import { createLocalFileStorage } from '../files/file-storage.ts';

/** The store (the one write path), the reference-list cache and file storage. */
export default fp(
  async (app) => {
    const references = await createReferenceService(app.db);
    app.decorate('references', references);
    // Links between records (`entityRef`) are checked before the store's own validation.
    app.decorate('store', withEntityRefs(createEntityStore(app.db, app.definitions, app.tables, references, app.config.listCountCap), app.db, app.definitions, app.tables));
    app.decorate('fileStorage', createLocalFileStorage(app.config.filesDir));
  },
  { name: 'store', dependencies: ['db'] },
);
