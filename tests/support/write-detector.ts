import type { Database } from '../../src/server/db/database.ts';

/**
 * Tables every request may write by design, refused or not: the per-address request
 * counters of the public rate limit, the log of sign-in attempts (a refused sign-in is
 * counted so that guessing slows down) and the integration platform's call audit (a call
 * refused for the caller's role or rate is recorded: who tried is what auditors look for).
 */
export const BOOKKEEPING_TABLES = ['rate_limit_count', 'login_attempt', 'integration_call'];

/**
 * A write detector for tests: a row-level trigger on every table notes each row version
 * that appears (insert, update: +1) or goes (update, delete: −1), by a hash of its content,
 * in `test_write_log`. A write that is rolled back takes its notes with it, and a row put in
 * and taken out again by the same request (a stored upload removed when the form is
 * refused) nets to zero — so `mark()` before and `writesSince()` after a request tell which
 * tables it left changed, with one indexed `max(id)` per request whatever the data's size.
 * Installed in the test's own database after start-up (the app's tables exist then); the
 * log table itself is not watched.
 */
export async function createWriteDetector(
  db: Database,
): Promise<{ mark(): Promise<number>; writesSince(mark: number): Promise<string[]> }> {
  const { rows } = await db.query<{ t: string }>(
    `SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'test_write_log'`,
  );
  await db.query(
    'CREATE TABLE IF NOT EXISTS test_write_log (id bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL, row_hash text NOT NULL, sign int NOT NULL)',
  );
  await db.query(`CREATE OR REPLACE FUNCTION test_note_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN INSERT INTO test_write_log (tbl, op, row_hash, sign) VALUES (TG_TABLE_NAME, TG_OP, md5(OLD::text), -1); END IF;
      IF TG_OP <> 'DELETE' THEN INSERT INTO test_write_log (tbl, op, row_hash, sign) VALUES (TG_TABLE_NAME, TG_OP, md5(NEW::text), 1); END IF;
      RETURN NULL;
    END $$`);
  for (const { t } of rows) {
    await db.query(
      `CREATE OR REPLACE TRIGGER test_note_write AFTER INSERT OR UPDATE OR DELETE ON "${t}" FOR EACH ROW EXECUTE FUNCTION test_note_write()`,
    );
  }
  return {
    async mark() {
      return Number((await db.query<{ m: number }>('SELECT coalesce(max(id), 0) AS m FROM test_write_log')).rows[0]!.m);
    },
    async writesSince(mark) {
      const written = await db.query<{ w: string }>(
        `SELECT DISTINCT tbl || ' ' || string_agg(DISTINCT op, '/') AS w FROM test_write_log WHERE id > $1
          GROUP BY tbl, row_hash HAVING sum(sign) <> 0 ORDER BY 1`,
        [mark],
      );
      return written.rows.map((r) => r.w).filter((w) => !BOOKKEEPING_TABLES.includes(w.split(' ')[0]!));
    },
  };
}
