/**
 * Prepared statements (src/server/db/database.ts `{ prepared: true }`, used by the store's read
 * of one record): on both backends a prepared statement answers exactly the rows the same
 * text answers unprepared — nested jsonb, Cyrillic text, nulls, the system columns as the API
 * shows them — on the pool and in a transaction, and it keeps answering after the table changes
 * under it (a column added, the table dropped and made again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/server/db/database.ts';
import { RECORD_COLUMNS } from '../../src/server/store/record-row.ts';
import { backends, createTestDatabase } from '../support/databases.ts';

const TABLE = 'prepared_probe';
const CREATE = `CREATE TABLE ${TABLE} (id bigserial PRIMARY KEY, version int NOT NULL DEFAULT 1, status text NOT NULL,
  owner text, region bigint, data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())`;
const SELECT = `SELECT ${RECORD_COLUMNS} FROM ${TABLE} WHERE id = $1`;
const RECORDS = [
  {
    customer: { surname: 'Каримов', name: 'Азиз', middle_name: null, phones: ['+998 90 123-45-67'] },
    content: 'Жалоба: «товар не соответствует» — 100% 😊',
    files: [],
    nested: { a: [{ b: { c: [1, 2.5, true, null, 'ў'] } }] },
  },
  { empty: {}, zero: 0, falsy: false, text: '' },
];

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`prepared statements on ${backend.name}`, () => {
    let db: Database;
    let drop = async (): Promise<void> => undefined;
    beforeAll(async () => {
      if (backend.name === 'postgres') {
        const created = await createTestDatabase();
        drop = created.drop;
        db = await createDatabase({ url: created.url, poolSize: 3 });
      } else {
        db = await createDatabase({ dataDir: 'memory://' });
      }
      await db.query(CREATE);
      for (const [i, data] of RECORDS.entries())
        await db.query(`INSERT INTO ${TABLE} (status, owner, region, data) VALUES ($1, $2, $3, $4::jsonb)`, [
          'CREATED',
          i ? '7' : null,
          i ? null : 3,
          JSON.stringify(data),
        ]);
    });
    afterAll(async () => {
      await db?.close();
      await drop();
    });

    /** Every record read both ways, many times over (each pooled connection prepares its own). */
    const expectSameRows = async (): Promise<void> => {
      for (const id of [1, 2, 3]) {
        const plain = await db.query(SELECT, [id]);
        const reads = await Promise.all(Array.from({ length: 8 }, () => db.query(SELECT, [id], { prepared: true })));
        for (const read of reads) expect(read).toEqual(plain);
        const inTx = await db.transaction((tx) => tx.query(SELECT, [id], { prepared: true }));
        expect(inTx).toEqual(plain);
      }
    };

    it('answers the rows the same text answers unprepared', async () => {
      const { rows } = await db.query<{ data: unknown }>(SELECT, [1], { prepared: true });
      expect(rows[0]!.data).toEqual(RECORDS[0]);
      expect((await db.query(SELECT, [3], { prepared: true })).rows).toEqual([]);
      await expectSameRows();
    });

    it('keeps answering when the table changes under it', async () => {
      await expectSameRows();
      await db.query(`ALTER TABLE ${TABLE} ADD COLUMN extra text`);
      await expectSameRows();
      await db.query(`ALTER TABLE ${TABLE} RENAME TO ${TABLE}_old`);
      await db.query(CREATE);
      await db.query(`INSERT INTO ${TABLE} SELECT id, version, status, owner, region, data, created_at, updated_at
        FROM ${TABLE}_old`);
      await db.query(`DROP TABLE ${TABLE}_old`);
      await expectSameRows();
    });

    it('gives two texts two statements', async () => {
      const other = `SELECT id, data->'customer' AS customer FROM ${TABLE} WHERE id = $1`;
      const [a, b] = await Promise.all([
        db.query(SELECT, [1], { prepared: true }),
        db.query(other, [1], { prepared: true }),
      ]);
      expect(Object.keys(a.rows[0]!)).toContain('created_iso');
      expect(b.rows).toEqual([{ id: 1, customer: RECORDS[0]!.customer }]);
    });
  });
}
