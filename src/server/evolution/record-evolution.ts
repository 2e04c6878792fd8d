/**
 * The start-up pass over stored records (docs/schema-evolution.md): for every entity whose
 * schema, version or migrations changed since the last complete pass, each record is brought
 * to the current version (./evolve-record.ts) — in batches of `batchSize` by id, each batch
 * one transaction under the start-up advisory lock, the position saved with the batch, so a
 * pass stopped half-way (a crash, a failing script) continues where it stopped on the next
 * start and no record is migrated twice. A changed record is written with its kept-aside
 * fields and new version and audited as changed by `system`, naming the migrations; a record
 * with kept-aside fields or schema errors is listed in `data_health`.
 */
import type { ValidateFunction } from 'ajv';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Database, Queryable } from '../db/database.ts';
import type { Migration } from '../db/migrations.ts';
import type { EntityTable } from '../db/entity-table.ts';
import { MIGRATION_LOCK } from '../db/migrate.ts';
import type { DefinitionRegistry, EntityDefinition } from '../../definitions/registry.ts';
import { createServerAjv } from '../validation.ts';
import { auditRow } from '../store/audit-trail.ts';
import { evolveRecord, type ScriptsByFile } from './evolve-record.ts';
import type { MigrationScript, RecordsReader, StoredRowFacts } from './steps.ts';

/** The pass's own tables: its position per entity, and the records that need a person's eye. */
export const EVOLUTION_TABLES: Migration = {
  name: 'record-evolution',
  ddl: [
    `CREATE TABLE IF NOT EXISTS record_evolution (
      entity text PRIMARY KEY,
      target text NOT NULL,
      after_id bigint NOT NULL DEFAULT 0,
      done boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE IF NOT EXISTS data_health (
      entity text NOT NULL,
      record_id bigint NOT NULL,
      schema_version integer NOT NULL,
      kept_aside jsonb NOT NULL DEFAULT '{}',
      errors jsonb NOT NULL DEFAULT '[]',
      checked_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (entity, record_id)
    )`,
  ],
};

/** The default number of records per transaction. */
export const EVOLUTION_BATCH_SIZE = 500;

/** What the pass did to one entity's records (logged per entity). */
export interface EvolutionCounts {
  entity: string;
  /** Records read in this run. */
  checked: number;
  /** Records raised to the current version by a migration. */
  migrated: number;
  /** Records with fields the schema does not know, kept aside. */
  keptAside: number;
  /** Records that still fail their schema. */
  failing: number;
  /** The id the run started after (0: from the start; more: a pass resumed). */
  resumedAfter: number;
}

interface Row {
  id: number | string;
  data: Record<string, unknown>;
  kept_aside: Record<string, unknown>;
  schema_version: number;
  owner: string | null;
}

const hash = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** What a complete pass was made for: the version, the schema and the migrations. */
const targetOf = (def: EntityDefinition): string =>
  hash({ version: def.schemaVersion, schema: def.schema, migrations: def.migrations });

/** Imports the script steps' modules of an entity's migrations from the definitions root. */
async function loadScripts(root: string, def: EntityDefinition, records: RecordsReader): Promise<ScriptsByFile> {
  const out = new Map<string, Map<string, MigrationScript>>();
  for (const m of def.migrations) {
    const scripts = new Map<string, MigrationScript>();
    for (const step of m.migration.steps) {
      if (step.op !== 'script') continue;
      const file = path.join(root, path.dirname(m.file), step.module);
      const module = (await import(pathToFileURL(file).href)) as {
        default?: (data: Record<string, unknown>, row: StoredRowFacts, prepared: unknown) => Record<string, unknown>;
        prepare?: (records: RecordsReader) => Promise<unknown>;
      };
      const run = module.default;
      if (typeof run !== 'function') throw new Error(`${m.file}: ${step.module} exports no default function`);
      // A script that needs other records (a name looked up in another registry) reads them
      // once, before the pass, through its optional `prepare` export.
      const prepared = typeof module.prepare === 'function' ? await module.prepare(records) : undefined;
      scripts.set(step.module, (data, row) => run(data, row, prepared));
    }
    out.set(m.file, scripts);
  }
  return out;
}

/**
 * Brings every entity's stored records in line with its definitions, entity by entity,
 * reporting the counts of each entity it had to look at.
 * @example await evolveStoredRecords(db, registry, tables, { root, log: (c) => app.log.info(c, 'records checked') })
 */
export async function evolveStoredRecords(
  db: Database,
  registry: DefinitionRegistry,
  tables: Map<string, EntityTable>,
  options: { root: string; batchSize?: number; log(counts: EvolutionCounts): void },
): Promise<void> {
  const ajv = createServerAjv();
  const batchSize = options.batchSize ?? EVOLUTION_BATCH_SIZE;
  for (const def of registry.entities.values()) {
    const table = tables.get(def.id)!;
    const target = targetOf(def);
    const state = await db.query<{ target: string; done: boolean; after_id: string | number }>(
      'SELECT target, done, after_id FROM record_evolution WHERE entity = $1',
      [def.id],
    );
    const known = state.rows[0];
    if (known?.target === target && known.done) continue;
    if (known?.target !== target) {
      await db.query(
        `INSERT INTO record_evolution (entity, target) VALUES ($1, $2)
         ON CONFLICT (entity) DO UPDATE SET target = $2, after_id = 0, done = false, updated_at = now()
         WHERE record_evolution.target <> $2`,
        [def.id, target],
      );
    }
    const counts: EvolutionCounts = {
      entity: def.id,
      checked: 0,
      migrated: 0,
      keptAside: 0,
      failing: 0,
      resumedAfter: known?.target === target ? Number(known.after_id) : 0,
    };
    // Compiled and imported only when there are records to look at: a new database has none,
    // and every test app starts on one.
    let judge: { validate: ValidateFunction; scripts: ScriptsByFile } | undefined;
    const judgeOf = async (tx: Queryable) =>
      (judge ??= {
        validate: ajv.compile(def.schema),
        scripts: await loadScripts(options.root, def, async (entity) => {
          const other = tables.get(entity);
          if (!other) throw new Error(`a migration of ${def.id} reads ${entity}, which is not an entity`);
          const { rows } = await tx.query<{ id: string | number; data: Record<string, unknown> }>(
            `SELECT id, data FROM ${other.table} ORDER BY id`,
          );
          return rows.map((r) => ({ id: Number(r.id), data: r.data }));
        }),
      });
    const updateSql = `UPDATE ${table.table} SET data = $1::jsonb, kept_aside = $2::jsonb, schema_version = $3,
      version = version + 1, ${table.computed.map((c) => `${c.column} = ${c.expr('$1::jsonb')}`).join(', ')}
      WHERE id = $4`;
    let done = false;
    while (!done) {
      done = await db.transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
        // Read again under the lock: another instance may have moved the pass on meanwhile.
        const { rows } = await tx.query<{ target: string; done: boolean; after_id: string | number }>(
          'SELECT target, done, after_id FROM record_evolution WHERE entity = $1 FOR UPDATE',
          [def.id],
        );
        if (!rows[0] || rows[0].target !== target || rows[0].done) return true;
        const batch = await tx.query<Row>(
          `SELECT id, data, kept_aside, schema_version, owner FROM ${table.table} WHERE id > $1 ORDER BY id LIMIT ${batchSize} FOR UPDATE`,
          [rows[0].after_id],
        );
        if (batch.rows.length) {
          const { validate, scripts } = await judgeOf(tx);
          for (const row of batch.rows) await evolveRow(tx, def, row, { validate, scripts, updateSql, counts });
        }
        const last = batch.rows.at(-1)?.id ?? rows[0].after_id;
        const finished = batch.rows.length < batchSize;
        await tx.query('UPDATE record_evolution SET after_id = $2, done = $3, updated_at = now() WHERE entity = $1', [
          def.id,
          last,
          finished,
        ]);
        return finished;
      });
    }
    options.log(counts);
  }
}

/** One record: evolved, written and audited when it changed, listed in data_health when it needs an eye. */
async function evolveRow(
  tx: Queryable,
  def: EntityDefinition,
  row: Row,
  ctx: {
    validate: ValidateFunction;
    scripts: ScriptsByFile;
    updateSql: string;
    counts: EvolutionCounts;
  },
): Promise<void> {
  const id = Number(row.id);
  const kept = row.kept_aside ?? {};
  const after = evolveRecord(def, ctx.validate, ctx.scripts, {
    id,
    data: row.data,
    kept,
    schemaVersion: row.schema_version,
    owner: row.owner,
  });
  ctx.counts.checked++;
  if (after.applied.length) ctx.counts.migrated++;
  const keptPointers = Object.keys(after.kept);
  if (keptPointers.length) ctx.counts.keptAside++;
  if (after.errors.length) ctx.counts.failing++;
  const { changed, diff } = auditRow(row.data, after.data);
  const keptChanged = JSON.stringify(kept) !== JSON.stringify(after.kept);
  if (changed.length || keptChanged || after.schemaVersion !== row.schema_version) {
    await tx.query(ctx.updateSql, [JSON.stringify(after.data), JSON.stringify(after.kept), after.schemaVersion, id]);
    const newlyKept = keptPointers.filter((p) => !(p in kept));
    const note = [...after.applied, ...(newlyKept.length ? [`kept aside: ${newlyKept.join(', ')}`] : [])].join('; ');
    await tx.query(
      'INSERT INTO audit_log (actor, entity, record_id, action, changed, diff, note) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)',
      ['system', def.id, id, 'migrate', changed, JSON.stringify(diff), note || null],
    );
  }
  if (keptPointers.length || after.errors.length) {
    await tx.query(
      `INSERT INTO data_health (entity, record_id, schema_version, kept_aside, errors) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb)
       ON CONFLICT (entity, record_id) DO UPDATE SET schema_version = $3, kept_aside = $4::jsonb, errors = $5::jsonb, checked_at = now()`,
      [def.id, id, after.schemaVersion, JSON.stringify(after.kept), JSON.stringify(after.errors)],
    );
  } else {
    await tx.query('DELETE FROM data_health WHERE entity = $1 AND record_id = $2', [def.id, id]);
  }
}
