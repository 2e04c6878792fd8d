import fp from 'fastify-plugin';
import path from 'node:path';
import { createDatabase } from '../db/database.ts';
import { migrate, MIGRATION_LOCK, START_LOCK } from '../db/migrate.ts';
import type { MigrationRegistry } from '../db/migrations.ts';
import type { Database } from '../db/database.ts';
import type { EntityTable } from '../db/entity-table.ts';
import { EVOLUTION_TABLES, evolveStoredRecords } from '../evolution/record-evolution.ts';
import { migrateRollups, planRollups, type Rollup } from '../store/rollup.ts';

/** The start-up pass's tables (its position per entity, the data-health list). */
export const migrations = [EVOLUTION_TABLES];

declare module 'fastify' {
  interface FastifyInstance {
    /** PGlite or PostgreSQL: one interface (db/database.ts). */
    db: Database;
    /** Each entity's table, its derived columns and indexes, by entity id. */
    tables: Map<string, EntityTable>;
    /** Every feature's tables, filled by buildApp from the plugin modules before this service migrates. */
    migrations: MigrationRegistry;
    /** The aggregates' summary tables (store/rollup.ts), by `entity/aggregate`. */
    rollups: Map<string, Rollup>;
    /** Lets the next instance on this database start (START_LOCK): buildApp calls it once all is started. */
    startDone(): Promise<void>;
  }
}

/**
 * Opens the database (PGlite by default, PostgreSQL with DATABASE_URL) and migrates it: the
 * entity tables derived from the definitions and every feature's tables (`app.migrations`),
 * before any other service starts.
 */
export default fp(
  async (app) => {
    const { databaseUrl, dataDir, inMemory, pgliteImage } = app.config;
    const db = await createDatabase(
      databaseUrl
        ? { url: databaseUrl }
        : inMemory
          ? { dataDir: 'memory://', image: pgliteImage }
          : { dataDir: path.join(dataDir, 'pglite') },
    );
    // Instances started together on one PostgreSQL start one after another (START_LOCK):
    // held until buildApp has started every service and route, or the app closes.
    const started = await db.hold(START_LOCK);
    // onClose hooks run last-added first: the lock's connection goes back before the pool ends.
    app.addHook('onClose', async () => db.close());
    app.addHook('onClose', started);
    app.decorate('startDone', started);
    app.decorate('db', db);
    const tables = await migrate(db, app.definitions, app.migrations.list());
    app.decorate('tables', tables);
    // After the entity tables: the summary tables' triggers are on them.
    const rollups = planRollups(app.definitions, tables);
    await migrateRollups(db, rollups, MIGRATION_LOCK);
    app.decorate('rollups', rollups);
    // Stored records follow the definitions before any service reads them: migrated, fields
    // the schema no longer knows kept aside, records that still fail listed (data health).
    await evolveStoredRecords(db, app.definitions, tables, {
      root: app.config.root,
      batchSize: app.config.migrationBatchSize,
      log: (counts) => app.log.info(counts, 'stored records checked against the schema'),
    });
    app.log.info({ db: db.kind }, 'database ready');
  },
  { name: 'db', dependencies: ['definitions'] },
);
