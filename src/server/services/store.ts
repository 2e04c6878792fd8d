import fp from 'fastify-plugin';
import { createEntityStore, type EntityStore } from '../store/entity-store.ts';
import { withEntityRefs } from '../store/entity-refs.ts';
import { withMessageTemplates } from '../store/message-templates.ts';
import { withRowLimits } from '../store/row-limits.ts';
import { withReferenceReload } from '../store/reference-reload.ts';
import { createStaffDirectory, type StaffDirectory } from '../store/staff-directory.ts';
import { withStaffUsers } from '../store/staff-refs.ts';
import { createReferenceService, type ReferenceService } from '../store/references.ts';
import { withRemoteSources } from '../store/remote-sources.ts';
import { AUDIT_TABLES } from '../store/audit-trail.ts';
import { FILE_TABLES } from '../files/file-storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one write path (and every read of records): entity-store.ts with its wrappers. */
    store: EntityStore;
    /** The reference lists (regions, districts…), cached; reloaded when their entity changes. */
    references: ReferenceService;
    /** The staff users behind `staffUser` fields (undefined without access.json's user entity). */
    staffDirectory: StaffDirectory | undefined;
  }
}

/** The audit log the store writes, and the files it links to records. */
export const migrations = [AUDIT_TABLES, FILE_TABLES];

/** How often the reference lists are read again, for changes made through other instances. */
const REFERENCE_RELOAD_MS = 30_000;

/**
 * The store (the one write path), the staff directory and the reference-list cache. Each
 * concern of a write or a list is a wrapper of store/ around createEntityStore.
 */
export default fp(
  async (app) => {
    // Reference lists kept as an entity's records (reference.schema.json `entity`).
    const backed = [...app.definitions.references.values()]
      .filter((list) => list.entity && app.tables.has(list.entity))
      .map((list) => ({ kind: list.kind, entity: list.entity!, table: app.tables.get(list.entity!)!.table }));
    const references = await createReferenceService(app.db, backed);
    app.decorate('references', references);
    const staff = createStaffDirectory(app.db, app.definitions, app.tables);
    app.decorate('staffDirectory', staff);
    // Row limits (the delegated user administration) first, then links between records
    // (`entityRef`) and staff users (`staffUser`), all before the store's own validation.
    const linked = withEntityRefs(
      withMessageTemplates(
        createEntityStore(app.db, app.definitions, app.tables, references, app.config.listCountCap),
        app.definitions,
      ),
      app.db,
      app.definitions,
      app.tables,
    );
    const limited = withRowLimits(
      withReferenceReload(
        withStaffUsers(linked, staff, app.definitions),
        references,
        new Set(backed.map((b) => b.entity)),
      ),
    );
    // Outermost: a record another system answers is stored through every wrapper above.
    app.decorate('store', withRemoteSources(limited, app.integrations, app.definitions, app.log));
    if (backed.length) {
      // Another instance's change reaches this one within REFERENCE_RELOAD_MS (its own at once).
      const timer = setInterval(() => {
        references.reload().catch((error: unknown) => app.log.warn({ err: error }, 'reference lists not reloaded'));
      }, REFERENCE_RELOAD_MS);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
  { name: 'store', dependencies: ['db', 'integrations'] },
);
