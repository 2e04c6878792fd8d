import { describe, expect, it } from 'vitest';
import { tariffCharge } from '../../src/server/capabilities/tariff/plugin.ts';

describe('tariffCharge (the advertising passport: monthly payment = M × K × area)', () => {
  it('multiplies the factors and rounds to whole sums', () => {
    expect(tariffCharge([60000, 2, 36])).toBe(4320000);
    expect(tariffCharge([40000, 1.2, 7.35])).toBe(352800);
    expect(tariffCharge([25000, 0.6, 1.333])).toBe(19995);
  });
  it('keeps the decimals asked for', () => {
    expect(tariffCharge([1.234, 2], 2)).toBe(2.47);
  });
  it('answers null when a factor is missing or not a number', () => {
    expect(tariffCharge([60000, undefined, 36])).toBeNull();
    expect(tariffCharge([60000, '2', 36])).toBeNull();
    expect(tariffCharge([])).toBeNull();
    expect(tariffCharge([Number.NaN, 1])).toBeNull();
  });
});
