import fp from 'fastify-plugin';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { systemActor } from '../auth/access.ts';

/**
 * Sample records of the manifests that name a `seed` file (an array of records beside the
 * manifest): inserted through the store — validated and audited like any create — when the
 * entity's table is still empty, so a fresh portal shows realistic data and staff edits are
 * never overwritten on a later start.
 */
export default fp(
  async (app) => {
    if (!app.config.seedSamples) return;
    const system = systemActor();
    for (const def of app.definitions.entities.values()) {
      if (!def.manifest.seed) continue;
      const table = app.tables.get(def.id)!;
      const { rows } = await app.db.query(`SELECT 1 FROM ${table.table} LIMIT 1`);
      if (rows.length) continue;
      const records = JSON.parse(await readFile(path.join(app.config.root, def.dir, def.manifest.seed), 'utf8')) as unknown[];
      // One transaction per entity: all or nothing, and one commit instead of one per row.
      await app.db.transaction(async (tx) => {
        for (const record of records) await app.store.create(def.id, record, system, { tx });
      });
    }
  },
  { name: 'seed', dependencies: ['store'] },
);
