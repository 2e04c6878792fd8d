import fp from 'fastify-plugin';
import path from 'node:path';
import { createDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';

/** Opens the database (PGlite by default, PostgreSQL with DATABASE_URL) and migrates it. */
export default fp(
  async (app) => {
    const { databaseUrl, dataDir, inMemory } = app.config;
    const db = await createDatabase(databaseUrl ? { url: databaseUrl } : { dataDir: inMemory ? 'memory://' : path.join(dataDir, 'pglite') });
    app.addHook('onClose', async () => db.close());
    app.decorate('db', db);
    app.decorate('tables', await migrate(db, app.definitions));
    app.log.info({ db: db.kind }, 'database ready');
  },
  { name: 'db', dependencies: ['definitions'] },
);
