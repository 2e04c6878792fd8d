/**
 * toRecord (src/server/store/record-row.ts) copies a row's data key by key instead of spreading
 * it: the record must be exactly the one the spread made — the same keys in the same order,
 * the same values, `__proto__` an own property and not the prototype — and the row untouched.
 */
import { describe, expect, it } from 'vitest';
import { toRecord, type RecordRow } from '../../src/server/store/record-row.ts';

const rowOf = (dataText: string): RecordRow => ({
  id: 42,
  region: 3,
  version: 7,
  status: 'SEEN',
  owner: null,
  // As pg hands a jsonb column over: parsed from its text.
  data: JSON.parse(dataText) as Record<string, unknown>,
  created_iso: '2026-01-02T03:04:05.123456Z',
  updated_iso: '2026-01-03T03:04:05.654321Z',
});

/** The record as it was made before: a spread of the data, then the system fields. */
const spreadRecord = (row: RecordRow): Record<string, unknown> => ({
  ...row.data,
  id: row.id,
  version: row.version,
  status: row.status,
  owner: row.owner,
  createdAt: row.created_iso,
  updatedAt: row.updated_iso,
});

const samples = [
  JSON.stringify({
    customer: { surname: 'Каримов', name: 'Азиз', middle_name: null, phones: ['+998 90 123-45-67'] },
    content: 'Жалоба: «товар не соответствует» — ўзбекча ғ қ 😊',
    files: [{ id: 1, name: 'акт.pdf' }],
    nested: { a: [{ b: { c: [1, 2.5, true, null, ''] } }] },
    regionId: 9,
  }),
  '{}',
  // Keys the system fields also use: the stored value gives way, the key keeps its place.
  '{"status":"stale","title":"x","id":1,"owner":"someone"}',
  // Integer-like keys come first in both, in ascending order.
  '{"b":1,"10":"ten","2":"two","a":null}',
  '{"__proto__":{"polluted":true},"constructor":"c","toString":"s"}',
];

describe('toRecord', () => {
  for (const text of samples) {
    it(`is the spread record of ${text.slice(0, 40)}`, () => {
      const row = rowOf(text);
      const before = structuredClone(row.data);
      const record = toRecord(row);
      const expected = spreadRecord(rowOf(text));
      expect(Object.keys(record)).toEqual(Object.keys(expected));
      expect(JSON.stringify(record)).toBe(JSON.stringify(expected));
      expect(record).toEqual(expected);
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect(record).not.toBe(row.data);
      expect(row.data).toEqual(before);
    });
  }

  it('keeps `__proto__` an own property', () => {
    const record = toRecord(rowOf('{"__proto__":{"polluted":true}}'));
    expect(Object.hasOwn(record, '__proto__')).toBe(true);
    expect((record as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
