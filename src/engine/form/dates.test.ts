import { describe, expect, it } from 'vitest';
import {
  businessToday,
  isDateAllowed,
  isoToDateTimeDisplay,
  isoToDisplay,
  maskDate,
  maskDateTime,
  monthGrid,
  toIsoDate,
} from './dates.ts';

describe('dates', () => {
  it('round-trips DD.MM.YYYY and YYYY-MM-DD', () => {
    expect(maskDate('12.05.2024')).toEqual({ text: '12.05.2024', value: '2024-05-12' });
    expect(isoToDisplay(maskDate('29022024').value)).toBe('29.02.2024');
    expect(isoToDisplay('2024-5-1')).toBeUndefined();
  });

  it('keeps unfinished or impossible dates as text, which the date format rejects', () => {
    expect(maskDate('1205')).toEqual({ text: '12.05', value: '12.05' });
    expect(maskDate('31022023')).toEqual({ text: '31.02.2023', value: '31.02.2023' });
    expect(maskDate('')).toEqual({ text: '', value: undefined });
  });

  it('refuses days after or before today when asked; today is always allowed', () => {
    const today = '2024-05-12';
    expect(isDateAllowed('2024-05-13', { disableFuture: true }, today)).toBe(false);
    expect(isDateAllowed('2024-05-12', { disableFuture: true, disablePast: true }, today)).toBe(true);
    expect(isDateAllowed('2024-05-11', { disablePast: true }, today)).toBe(false);
    expect(isDateAllowed('2024-05-11', {}, today)).toBe(true);
  });

  it('stores date-times as ISO moments and shows them in local time', () => {
    const { text, value } = maskDateTime('12.05.2024 09:30');
    expect(text).toBe('12.05.2024 09:30');
    expect(value).toBe(new Date(2024, 4, 12, 9, 30).toISOString());
    expect(isoToDateTimeDisplay(value)).toBe('12.05.2024 09:30');
    expect(maskDateTime('12.05.2024 25:00').value).toBe('12.05.2024 25:00');
  });

  it('lays a month out in weeks starting on Monday', () => {
    const may = monthGrid(2024, 4); // 1 May 2024 was a Wednesday
    expect(may[0]!.slice(0, 3)).toEqual([null, null, expect.any(Date)]);
    expect(may.flat().filter(Boolean)).toHaveLength(31);
    expect(may.every((w) => w.length === 7)).toBe(true);
    expect(toIsoDate(may[0]![2]!)).toBe('2024-05-01');
  });
});

describe('the business day', () => {
  it('is Tashkent’s: after 19:00 UTC a future-less picker already allows tomorrow’s UTC date', () => {
    const evening = new Date('2026-11-26T19:30:00Z');
    expect(businessToday(evening)).toBe('2026-11-27');
    expect(isDateAllowed('2026-11-27', { disableFuture: true }, businessToday(evening))).toBe(true);
    expect(isDateAllowed('2026-11-28', { disableFuture: true }, businessToday(evening))).toBe(false);
    expect(businessToday(new Date('2026-11-26T18:59:59Z'))).toBe('2026-11-26');
  });
});
