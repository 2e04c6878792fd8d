import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/** How a statement is run. */
export interface QueryOptions {
  /**
   * A hot statement with a fixed text (only its parameters change): PostgreSQL parses it once
   * per connection and reuses it (a named prepared statement; the name comes from the text).
   * The same rows either way; PGlite runs it as any other.
   */
  prepared?: boolean;
}

/** Something that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<{ rows: T[]; rowCount: number }>;
}

/** The name of a prepared statement: its text's hash, so that one name never means two texts. */
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `s_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/**
 * The one database interface the server uses. Both engines speak the same PostgreSQL
 * dialect; numeric types come back as numbers and dates as ISO strings on both.
 */
export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Waits for the advisory lock `key` and holds it, on a connection of its own, until the
   * returned function is called (or the process ends): instances sharing a PostgreSQL take
   * turns at what it guards. PGlite belongs to one process: nothing to wait for.
   */
  hold(key: number): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…` selects a real PostgreSQL through a pg pool. */
  url?: string | undefined;
  /** PGlite data directory; `memory://` keeps it in memory (tests). */
  dataDir?: string | undefined;
  /** Pool size for PostgreSQL. */
  poolSize?: number | undefined;
  /** PGlite starts from this archived data directory (`dumpDataDir`) instead of an empty one. */
  image?: Blob | undefined;
}

// OIDs: int8, numeric → number (amounts and ids stay far below 2^53); date → 'YYYY-MM-DD'.
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;

/** Opens PGlite (default) or PostgreSQL (when `url` is given). */
export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? createPostgres(options.url, options.poolSize ?? 10)
    : createPglite(options.dataDir ?? 'memory://', options.image);
}

async function createPostgres(url: string, max: number): Promise<Database> {
  const pg = (await import('pg')).default;
  const types = {
    getTypeParser: (oid: number, format?: string) => {
      if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
      if (oid === DATE) return (v: string) => v;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  // Idle connections stay open for 5 minutes (pg's default closes them after 10 s): a new
  // backend's first statements load its catalog caches, so a pool that shrank between two busy
  // moments made the sends of the second one wait 200–300 ms (bench:live's direct p99).
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 300_000, types: types as never });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries report their own errors.
  });
  await pool.query('select 1');
  type Client = {
    query(sql: string, params?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
    query(config: { name: string; text: string; values?: unknown[] }): Promise<{
      rows: unknown[];
      rowCount: number | null;
    }>;
  };
  const wrap = (client: Client): Queryable => ({
    async query<T>(sql: string, params?: unknown[], options?: QueryOptions) {
      const result = options?.prepared
        ? await client.query({ name: statementName(sql), text: sql, values: params ?? [] })
        : await client.query(sql, params);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    },
  });
  const self = wrap(pool);
  return {
    kind: 'postgres',
    query: self.query,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async hold(key) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [key]);
      } catch (error) {
        client.release();
        throw error;
      }
      let held = true;
      return async () => {
        if (!held) return;
        held = false;
        try {
          await client.query('SELECT pg_advisory_unlock($1)', [key]);
        } finally {
          client.release();
        }
      };
    },
    close: () => pool.end(),
  };
}

async function createPglite(dataDir: string, image: Blob | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  if (!dataDir.startsWith('memory://')) await mkdir(path.resolve(dataDir), { recursive: true });
  const db = await PGlite.create({
    dataDir: dataDir.startsWith('memory://') ? dataDir : path.resolve(dataDir),
    extensions: { pg_trgm },
    ...(image ? { loadDataDir: image } : {}),
    parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v), [DATE]: (v: string) => v },
  });
  const run = async <T>(target: { query: typeof db.query }, sql: string, params?: unknown[]) => {
    const result = await target.query<T>(sql, params as never[]);
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
  };
  return {
    kind: 'pglite',
    query: (sql, params) => run(db, sql, params),
    transaction: (fn) => db.transaction((tx) => fn({ query: (sql, params) => run(tx as never, sql, params) })),
    hold: async () => async () => undefined,
    close: () => db.close(),
  };
}
