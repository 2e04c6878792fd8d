/** A public lookup's range (a `gte` and an `lte` parameter on one field) given the wrong way round. */
import { describe, expect, it } from 'vitest';
import { reversedRangeParams } from '../../src/shared/lookup-ranges.ts';

const by = [
  { param: 'from', field: '/hearingAt', op: 'gte' as const, type: 'date' as const },
  { param: 'to', field: '/hearingAt', op: 'lte' as const, type: 'date' as const },
  { param: 'min', field: '/amount', op: 'gte' as const, type: 'integer' as const },
  { param: 'max', field: '/amount', op: 'lte' as const, type: 'integer' as const },
  { param: 'regionId', field: '/regionId', type: 'integer' as const },
];

describe('reversedRangeParams', () => {
  it('names the upper bound of a range whose end is before its start', () => {
    expect(reversedRangeParams(by, { from: '2026-12-31', to: '2026-11-01' })).toEqual(['to']);
    expect(reversedRangeParams(by, { min: '100', max: '20' })).toEqual(['max']);
    expect(reversedRangeParams(by, { from: '2026-12-31', to: '2026-11-01', min: 9, max: 10 })).toEqual(['to']);
  });

  it('passes a range in order, one day, a missing or unreadable bound', () => {
    expect(reversedRangeParams(by, { from: '2026-11-01', to: '2026-12-31' })).toEqual([]);
    expect(reversedRangeParams(by, { from: '2026-11-01', to: '2026-11-01' })).toEqual([]);
    expect(reversedRangeParams(by, { from: '2026-11-01' })).toEqual([]);
    expect(reversedRangeParams(by, { from: '', to: '2026-11-01' })).toEqual([]);
    expect(reversedRangeParams(by, { min: 'x', max: '1' })).toEqual([]);
    expect(reversedRangeParams(by, { regionId: 3 })).toEqual([]);
  });
});
