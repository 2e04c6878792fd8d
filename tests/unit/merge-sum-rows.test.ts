/**
 * The summing merge (`merge.sumBy`, src/server/capabilities/merge/sum-rows.ts): rows merged by
 * key in first-seen order, numbers added (an unfilled number counts nothing and stays unfilled
 * where no record has it), texts listed one per line, other fields from the first row of a key,
 * rows without a key kept after the keyed ones, and the sources never changed.
 */
import { describe, expect, it } from 'vitest';
import { sumRows } from '../../src/server/capabilities/merge/sum-rows.ts';

const spec = { array: '/rows', key: '/code', sum: ['/value'], list: ['/text'] };

describe('sumRows', () => {
  it('adds numbers per key in the order keys first appear, whatever the order of rows in each record', () => {
    const records = [
      {
        rows: [
          { code: 'a', name: 'A', value: 1.1 },
          { code: 'b', name: 'B', value: 10 },
        ],
      },
      {
        rows: [
          { code: 'c', name: 'C', value: 5 },
          { code: 'a', name: 'A (renamed)', value: 2.2 },
        ],
      },
      { rows: [{ code: 'b', name: 'B', value: -3 }] },
    ];
    expect(sumRows(records, spec)).toEqual([
      { code: 'a', name: 'A', value: 3.3 },
      { code: 'b', name: 'B', value: 7 },
      { code: 'c', name: 'C', value: 5 },
    ]);
  });

  it('leaves a number unfilled only where no record filled it, and lists the non-empty texts one per line', () => {
    const records = [
      { rows: [{ code: 'n', value: 0 }, { code: 'u' }, { code: 't', text: 'First' }] },
      { rows: [{ code: 'n' }, { code: 'u' }, { code: 't', text: '  ' }] },
      { rows: [{ code: 't', text: 'Third' }] },
    ];
    expect(sumRows(records, spec)).toEqual([
      { code: 'n', value: 0 },
      { code: 'u' },
      { code: 't', text: 'First\nThird' },
    ]);
  });

  it('keeps rows without a key after the keyed ones and skips records without the array', () => {
    const records = [
      {
        rows: [
          { name: 'loose', value: 1 },
          { code: 'k', value: 2 },
        ],
      },
      {},
      { rows: 'not rows' },
    ];
    expect(sumRows(records, spec)).toEqual([
      { code: 'k', value: 2 },
      { name: 'loose', value: 1 },
    ]);
  });

  it('does not change the records it reads', () => {
    const records = [{ rows: [{ code: 'a', value: 1 }] }, { rows: [{ code: 'a', value: 2 }] }];
    const before = structuredClone(records);
    sumRows(records, spec);
    expect(records).toEqual(before);
  });
});
