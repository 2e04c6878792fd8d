import { afterEach, describe, expect, it, vi } from 'vitest';
import { cellName, forSelectedEntity, selectedDatabases, selectedEntities } from '../support/test-selection.ts';

describe('test selection (TEST_DB, TEST_ENTITY)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('runs on both databases by default, on one when TEST_DB names it, and refuses an unknown one', () => {
    expect(selectedDatabases({})).toEqual(['pglite', 'postgres']);
    expect(selectedDatabases({ TEST_DB: 'both' })).toEqual(['pglite', 'postgres']);
    expect(selectedDatabases({ TEST_DB: 'pglite' })).toEqual(['pglite']);
    expect(selectedDatabases({ TEST_DB: 'Postgres' })).toEqual(['postgres']);
    expect(() => selectedDatabases({ TEST_DB: 'sqlite' })).toThrow(
      'TEST_DB=sqlite is not one of: pglite, postgres, both',
    );
  });

  it("keeps every entity without TEST_ENTITY, and only the named entities' items with it", () => {
    const items = [
      { id: 'appeal', n: 1 },
      { id: 'tender', n: 2 },
      { id: 'appeal', n: 3 },
    ];
    vi.stubEnv('TEST_ENTITY', '');
    expect(selectedEntities()).toBeUndefined();
    expect(forSelectedEntity(items, (i) => i.id)).toEqual(items);
    vi.stubEnv('TEST_ENTITY', 'appeal');
    expect(selectedEntities()).toEqual(['appeal']);
    expect(forSelectedEntity(items, (i) => i.id).map((i) => i.n)).toEqual([1, 3]);
    // Several, comma-separated (npm run test:entity -- a b).
    vi.stubEnv('TEST_ENTITY', ' tender , appeal,');
    expect(selectedEntities()).toEqual(['tender', 'appeal']);
    expect(forSelectedEntity(items, (i) => i.id).map((i) => i.n)).toEqual([1, 2, 3]);
    vi.stubEnv('TEST_ENTITY', 'tender');
    expect(forSelectedEntity(items, (i) => i.id).map((i) => i.n)).toEqual([2]);
  });

  it('names a cell by entity, state, event, role and field, leaving out missing parts', () => {
    expect(cellName('appeal', 'BEING_SEEN', 'reject', 'executor', '/files')).toBe(
      'appeal · BEING_SEEN · reject · executor · /files',
    );
    expect(cellName('appeal', 'BEING_SEEN', undefined, 'executor', '/files')).toBe(
      'appeal · BEING_SEEN · executor · /files',
    );
  });
});
