/**
 * The SQL path of a pointer (src/shared/pointer.ts) against a real PostgreSQL parser (PGlite):
 * hostile segments address exactly the key they name and never end the SQL literal.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlJson, sqlText, toPointer } from '../../src/shared/pointer.ts';

describe('the SQL path on PostgreSQL', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
  });
  afterAll(async () => {
    await db.close();
  });

  const hostile = [
    'plain',
    'a,b',
    '{x}',
    'say "hi"',
    'back\\slash',
    'a b',
    '',
    'NULL',
    "it's",
    "x'); DROP TABLE t; --",
    'a/b',
    '~',
    'юникод',
  ];

  it('reads each hostile key, nested, as the value stored under it', async () => {
    for (const key of hostile) {
      const data = JSON.stringify({ outer: { [key]: `v:${key}` } });
      const pointer = toPointer(['outer', key]);
      const { rows } = await db.query<{ v: string | null; j: unknown }>(
        `SELECT ${sqlText(pointer, 'd')} AS v, ${sqlJson(pointer, 'd')} AS j FROM (SELECT $1::jsonb AS d) s`,
        [data],
      );
      expect(rows[0]!.v).toBe(`v:${key}`);
      expect(rows[0]!.j).toBe(`v:${key}`);
    }
  });
});
