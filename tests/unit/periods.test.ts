import { describe, expect, it } from 'vitest';
import { businessToday, currentPeriod, customPeriod, parsePeriod, previousPeriod } from '../../src/shared/periods.ts';

/** Reporting periods as they travel in a dashboard's URL (src/shared/periods.ts). */
describe('parsePeriod', () => {
  it('reads a month, a quarter, a year and a custom range with their first and last days', () => {
    expect(parsePeriod('2025-07')).toEqual({ unit: 'month', text: '2025-07', from: '2025-07-01', to: '2025-07-31' });
    expect(parsePeriod('2024-02')).toMatchObject({ from: '2024-02-01', to: '2024-02-29' });
    expect(parsePeriod('2025-02')).toMatchObject({ to: '2025-02-28' });
    expect(parsePeriod('2025-Q1')).toEqual({ unit: 'quarter', text: '2025-Q1', from: '2025-01-01', to: '2025-03-31' });
    expect(parsePeriod('2025-Q4')).toMatchObject({ from: '2025-10-01', to: '2025-12-31' });
    expect(parsePeriod('2025')).toEqual({ unit: 'year', text: '2025', from: '2025-01-01', to: '2025-12-31' });
    expect(parsePeriod('2025-07-05..2025-07-05')).toEqual({
      unit: 'custom',
      text: '2025-07-05..2025-07-05',
      from: '2025-07-05',
      to: '2025-07-05',
    });
  });

  it('names nothing for typos, impossible days, a reversed range and empty values', () => {
    for (const text of ['', null, undefined, '2025-13', '2025-00', '2025-Q5', '2025-Q0', '25', '2025-7', 'x']) {
      expect(parsePeriod(text)).toBeUndefined();
    }
    expect(parsePeriod('2025-02-29..2025-03-01')).toBeUndefined();
    expect(parsePeriod('2025-07-10..2025-07-09')).toBeUndefined();
    expect(parsePeriod('2025-07-01..')).toBeUndefined();
    expect(customPeriod('2025-07-10', '2025-07-09')).toBeUndefined();
    expect(customPeriod('2025-07-01', '2025-07-09')?.text).toBe('2025-07-01..2025-07-09');
  });
});

describe('previousPeriod', () => {
  it('steps back one month, quarter or year across the year boundary', () => {
    expect(previousPeriod(parsePeriod('2025-01')!).text).toBe('2024-12');
    expect(previousPeriod(parsePeriod('2025-03')!)).toMatchObject({ text: '2025-02', to: '2025-02-28' });
    expect(previousPeriod(parsePeriod('2025-Q1')!).text).toBe('2024-Q4');
    expect(previousPeriod(parsePeriod('2025-Q3')!)).toMatchObject({
      text: '2025-Q2',
      from: '2025-04-01',
      to: '2025-06-30',
    });
    expect(previousPeriod(parsePeriod('2025')!).text).toBe('2024');
  });

  it('a custom range: the same number of days ending the day before it starts', () => {
    expect(previousPeriod(parsePeriod('2025-07-01..2025-07-31')!)).toEqual({
      unit: 'custom',
      text: '2025-05-31..2025-06-30',
      from: '2025-05-31',
      to: '2025-06-30',
    });
    expect(previousPeriod(parsePeriod('2025-03-01..2025-03-01')!).text).toBe('2025-02-28..2025-02-28');
    // A custom range is days, not a year: 366 days of 2024 compare with the 366 days before.
    expect(previousPeriod(parsePeriod('2024-01-01..2024-12-31')!).text).toBe('2022-12-31..2023-12-31');
  });
});

describe('currentPeriod', () => {
  it('is the month, quarter or year of today in Tashkent (UTC+5), not of UTC', () => {
    // 20:00 UTC on 31 March is already 1 April in Tashkent.
    const late = new Date('2025-03-31T20:00:00Z');
    expect(businessToday(late)).toBe('2025-04-01');
    expect(currentPeriod('month', late).text).toBe('2025-04');
    expect(currentPeriod('quarter', late).text).toBe('2025-Q2');
    expect(currentPeriod('year', new Date('2024-12-31T19:30:00Z')).text).toBe('2025');
    expect(currentPeriod('quarter', new Date('2025-08-10T10:00:00Z')).text).toBe('2025-Q3');
  });
});
