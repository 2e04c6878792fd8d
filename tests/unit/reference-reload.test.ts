/**
 * The reference lists' reload (src/server/store/references.ts) on a real PGlite: reloads asked
 * for together share reads — a burst of writes costs two reads, not one each — and every caller
 * still sees what was written before it asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import type { Queryable } from '../../src/server/db/database.ts';
import { createReferenceService } from '../../src/server/store/references.ts';

let pg: PGlite;
let reads = 0;
const db: Queryable = {
  async query(sql, params) {
    if (/FROM ref_item/.test(sql)) reads++;
    return (await pg.query(sql, params as unknown[])) as never;
  },
};

beforeAll(async () => {
  pg = await PGlite.create();
  await pg.exec(`CREATE TABLE ref_item (kind text, id serial PRIMARY KEY, code text, parent int, sort int DEFAULT 0,
    name_lt text, name_uz text, name_ru text, name_en text, active boolean DEFAULT true)`);
});
afterAll(async () => pg.close());

const add = (name: string) =>
  pg.query(
    `INSERT INTO ref_item (kind, code, name_lt, name_uz, name_ru, name_en) VALUES ('topic', $1, $1, $1, $1, $1)`,
    [name],
  );

describe('reference lists reload', () => {
  it('shares the reads of reloads asked for together, and each caller sees its own write', async () => {
    const refs = await createReferenceService(db);
    expect(refs.list('topic')).toBeUndefined();
    reads = 0;
    // Twenty writers, each reloading after its write, all at once.
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await add(`t${i}`);
        await refs.reload();
        expect(refs.list('topic')!.map((t) => t.code)).toContain(`t${i}`);
      }),
    );
    expect(refs.list('topic')).toHaveLength(20);
    expect(reads).toBeLessThan(20);
    // One more, alone: a reload of its own.
    reads = 0;
    await add('last');
    await refs.reload();
    expect(reads).toBe(1);
    expect(refs.list('topic')!.map((t) => t.code)).toContain('last');
  });
});
