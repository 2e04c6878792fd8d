/**
 * Deadlines are Tashkent days (UTC+5): "today", "15 days ahead" and "the end of the due
 * day" around both midnights — Tashkent's (19:00 UTC) and UTC's (05:00 in Tashkent).
 */
import { describe, expect, it } from 'vitest';
import { businessDate, deadlinePassed, endOfBusinessDay } from '../../src/shared/business-day.ts';
import { actionImplementations } from '../../src/server/workflow/implementations.ts';

const at = (iso: string) => new Date(iso);

describe('the Tashkent business day', () => {
  it('counts the calendar day in Tashkent, not in UTC', () => {
    expect(businessDate(at('2026-05-02T18:59:59.999Z'))).toBe('2026-05-02'); // 23:59:59.999 in Tashkent
    expect(businessDate(at('2026-05-02T19:00:00Z'))).toBe('2026-05-03'); // midnight in Tashkent
    expect(businessDate(at('2026-05-02T23:30:00Z'))).toBe('2026-05-03'); // still 2 May in UTC
    expect(businessDate(at('2026-05-03T00:30:00Z'))).toBe('2026-05-03'); // UTC midnight changes nothing
    expect(businessDate(at('2026-12-31T19:00:00Z'))).toBe('2027-01-01');
  });

  it('puts "n days ahead" on the Tashkent calendar', () => {
    expect(businessDate(at('2026-05-02T18:00:00Z'), 15)).toBe('2026-05-17');
    expect(businessDate(at('2026-05-02T20:00:00Z'), 15)).toBe('2026-05-18');
    expect(businessDate(at('2026-02-20T21:00:00Z'), 15)).toBe('2026-03-08'); // across February
  });

  it('ends a day at 23:59:59.999 Tashkent = 18:59:59.999 UTC', () => {
    expect(endOfBusinessDay('2026-03-16')?.toISOString()).toBe('2026-03-16T18:59:59.999Z');
    expect(endOfBusinessDay('2026-12-31')?.toISOString()).toBe('2026-12-31T18:59:59.999Z');
    expect(endOfBusinessDay('16.03.2026')).toBeNull();
  });

  it('says a date deadline has passed from Tashkent midnight on, a date-time one after its instant', () => {
    expect(deadlinePassed('2026-03-16', at('2026-03-16T18:59:59.999Z'))).toBe(false);
    expect(deadlinePassed('2026-03-16', at('2026-03-16T19:00:00Z'))).toBe(true);
    expect(deadlinePassed('2026-03-16', at('2026-03-16T12:00:00Z'))).toBe(false);
    expect(deadlinePassed('2026-03-16T10:00:00Z', at('2026-03-16T10:00:00.001Z'))).toBe(true);
    expect(deadlinePassed('', at('2026-03-16T10:00:00Z'))).toBeUndefined();
  });

  it('stamps today and deadlines with the Tashkent date', () => {
    const ctx = { record: {}, payload: {}, actorId: '1', now: at('2026-05-02T20:00:00Z') };
    expect(actionImplementations.stampToday!(ctx, { field: 'seenAt' })).toEqual({ seenAt: '2026-05-03' });
    expect(actionImplementations.stampDaysAhead!(ctx, { field: 'reviewDeadline', days: 15 })).toEqual({
      reviewDeadline: '2026-05-18',
    });
  });
});
