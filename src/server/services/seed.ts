import fp from 'fastify-plugin';
import { systemActor } from '../auth/access.ts';
import { seedGenerators } from '../../definitions/seed-generators.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { sqlText, valueAt } from '../../shared/pointer.ts';

type SeedRecord = Record<string, unknown>;

const isPlaceholder = (v: unknown): v is { $seed: string } =>
  Boolean(v && typeof v === 'object' && !Array.isArray(v) && '$seed' in v);

/** The records a manifest's `seed` names: its file's, or its generator's. */
function seedRecords(def: EntityDefinition, registry: Parameters<(typeof seedGenerators)[string]>[0]): SeedRecord[] {
  const seed = def.manifest.seed!;
  if (seed.generator) return seedGenerators[seed.generator]!(registry);
  return (def.seedFile?.records ?? []) as SeedRecord[];
}

/**
 * Seeds entities whose manifest says `seed` (definition-driven, see entity.schema.json):
 * records go through the store — validated, audited as the system actor — in file order, so
 * `{"$seed": key}` can name an earlier record (a parent). `when: "empty"` seeds only an empty
 * table, all records in one transaction (all or nothing, one commit instead of one per row);
 * `when: "missing"` adds each record whose key is not there yet. Both are idempotent: a
 * restart adds nothing that is already there. Seeds marked `samples` (demo rows) run only
 * when the config asks for them (`seedSamples`), so tests see only their own rows.
 */
export default fp(
  async (app) => {
    const system = systemActor();
    // Entities that back a reference list (reference.schema.json `entity`) first: the other
    // seeds name their items, which exist once those records are in and the lists reloaded.
    const backing = new Set(
      [...app.definitions.references.values()].flatMap((list) => (list.entity ? [list.entity] : [])),
    );
    const ordered = [...app.definitions.entities.values()].sort(
      (a, b) => Number(backing.has(b.id)) - Number(backing.has(a.id)),
    );
    let listsLoaded = backing.size === 0;
    for (const def of ordered) {
      if (!listsLoaded && !backing.has(def.id)) {
        await app.references.reload();
        listsLoaded = true;
      }
      const seed = def.manifest.seed;
      if (!seed || (seed.samples && !app.config.seedSamples)) continue;
      const table = app.tables.get(def.id)!;
      const keyText = seed.key ? sqlText(seed.key) : undefined;
      /** Replaces each {"$seed": key} by the id of the record seeded (or present) with that key. */
      const resolve = (record: SeedRecord, present: Map<string, number>): SeedRecord => {
        const resolved: SeedRecord = {};
        for (const [name, value] of Object.entries(record)) {
          if (!isPlaceholder(value)) resolved[name] = value;
          else if (present.has(String(value.$seed))) resolved[name] = present.get(String(value.$seed));
          else throw new Error(`seed of ${def.id}: no record with ${seed.key} = "${value.$seed}" (list it earlier)`);
        }
        return resolved;
      };

      if (seed.when === 'empty') {
        const isEmpty = async () => (await app.db.query(`SELECT 1 FROM ${table.table} LIMIT 1`)).rows.length === 0;
        if (!(await isEmpty())) continue;
        try {
          await app.db.transaction(async (tx) => {
            const present = new Map<string, number>();
            for (const record of seedRecords(def, app.definitions)) {
              const { id } = await app.store.create(def.id, resolve(record, present), system, { tx });
              if (seed.key) present.set(String(valueAt(record, seed.key)), id);
            }
          });
        } catch (error) {
          // Another instance starting at the same time seeded the table first.
          if (await isEmpty()) throw error;
        }
        continue;
      }

      // Every present key and its id in one read: a catalogue of hundreds costs one query a start.
      const present = new Map<string, number>();
      const { rows } = await app.db.query<{ id: number; key: string | null }>(
        `SELECT id, ${keyText} AS key FROM ${table.table} ORDER BY id`,
      );
      for (const r of rows) if (r.key !== null && !present.has(r.key)) present.set(r.key, Number(r.id));
      for (const record of seedRecords(def, app.definitions)) {
        const key = String(valueAt(record, seed.key!));
        if (present.has(key)) continue;
        try {
          present.set(key, (await app.store.create(def.id, resolve(record, present), system)).id);
        } catch (error) {
          // Another instance starting at the same time seeded it first (the key is unique).
          const { rows: again } = await app.db.query<{ id: number }>(
            `SELECT id FROM ${table.table} WHERE ${keyText} = $1`,
            [key],
          );
          if (!again[0]) throw error;
          present.set(key, Number(again[0].id));
        }
      }
    }
    // Seeded records of an entity that backs a reference list are items now (the store's
    // reload skips writes inside the seed's transaction).
    await app.references.reload();
  },
  { name: 'seed', dependencies: ['store'] },
);
