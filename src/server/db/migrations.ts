/**
 * One feature's tables: idempotent statements (`CREATE … IF NOT EXISTS`, `ADD COLUMN IF NOT
 * EXISTS`, an insert that only fills an empty table) that the database service runs, in order,
 * on every start. The feature keeps its DDL next to the code that uses the tables; the plugin
 * module that serves the feature names it in its `migrations` export (see src/server/app.ts),
 * so this module — and db/migrate.ts — know no feature.
 * @example export const OUTBOX_TABLES: Migration = { name: 'outbox', ddl: OUTBOX_DDL };
 */
export interface Migration {
  /** Unique among the migrations of one app (`auth`, `outbox`, `visits`…). */
  readonly name: string;
  readonly ddl: readonly string[];
  /** Statements that need the pg_trgm extension (trigram indexes), skipped without it. */
  readonly trigram?: readonly string[];
}

/** The migrations of one app, in the order they were registered — the order they run in. */
export interface MigrationRegistry {
  /**
   * Adds a feature's tables. Several plugins may name the same migration (a table two routes
   * share): it is kept once, in its first place. Two different migrations under one name are
   * a programming error and throw.
   */
  register(migration: Migration): void;
  /** Every registered migration, in registration order. */
  list(): readonly Migration[];
}

const sameStatements = (a: readonly string[] = [], b: readonly string[] = []): boolean =>
  a.length === b.length && a.every((s, i) => s === b[i]);

/**
 * An empty registry; buildApp fills it from the plugin modules before the database service
 * migrates, so every table exists before any service starts.
 * @example const migrations = createMigrationRegistry(); migrations.register(OUTBOX_TABLES);
 */
export function createMigrationRegistry(): MigrationRegistry {
  const byName = new Map<string, Migration>();
  return {
    register(migration) {
      const known = byName.get(migration.name);
      if (!known) {
        byName.set(migration.name, migration);
        return;
      }
      if (!sameStatements(known.ddl, migration.ddl) || !sameStatements(known.trigram, migration.trigram)) {
        throw new Error(`two different migrations are named "${migration.name}"`);
      }
    },
    list: () => [...byName.values()],
  };
}
