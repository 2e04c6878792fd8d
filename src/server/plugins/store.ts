import fp from 'fastify-plugin';
import { createEntityStore } from '../store/entity-store.ts';
import { withEntityRefs } from '../store/entity-refs.ts';
import { createStaffDirectory } from '../store/staff-directory.ts';
import { withStaffUsers } from '../store/staff-refs.ts';
import { createReferenceService } from '../store/references.ts';
import { createLocalFileStorage } from '../files/file-storage.ts';

/** The store (the one write path), the staff directory, the reference-list cache and file storage. */
export default fp(
  async (app) => {
    const references = await createReferenceService(app.db);
    app.decorate('references', references);
    const staff = createStaffDirectory(app.db, app.definitions, app.tables);
    app.decorate('staffDirectory', staff);
    // Links between records (`entityRef`) and staff users (`staffUser`) are checked before the store's own validation.
    const linked = withEntityRefs(createEntityStore(app.db, app.definitions, app.tables, references, app.config.listCountCap), app.db, app.definitions, app.tables);
    app.decorate('store', withStaffUsers(linked, staff, app.definitions));
    app.decorate('fileStorage', createLocalFileStorage(app.config.filesDir));
  },
  { name: 'store', dependencies: ['db'] },
);
