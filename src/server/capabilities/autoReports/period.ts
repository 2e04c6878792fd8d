/**
 * The periods of automatic reports (the `autoReports` capability): calendar months or weeks
 * (Monday to Sunday), counted in Tashkent time, as dates `YYYY-MM-DD`.
 */

/** Tashkent is UTC+5 all year (no daylight saving). */
const TASHKENT_OFFSET_MS = 5 * 3600 * 1000;

/** A period of a report: its first and last day. */
export interface Period {
  from: string;
  to: string;
}

const day = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * The last period that has ended by `now`: the previous calendar month, or the previous
 * Monday-to-Sunday week, in Tashkent time.
 * @example lastEndedPeriod('month', new Date('2026-11-26T10:00:00Z')) // { from: '2026-10-01', to: '2026-10-31' }
 */
export function lastEndedPeriod(unit: 'month' | 'week', now: Date): Period {
  const local = new Date(now.getTime() + TASHKENT_OFFSET_MS);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth();
  if (unit === 'month') return { from: day(new Date(Date.UTC(y, m - 1, 1))), to: day(new Date(Date.UTC(y, m, 0))) };
  // Days since this week's Monday (getUTCDay: Sunday 0).
  const sinceMonday = (local.getUTCDay() + 6) % 7;
  const monday = Date.UTC(y, m, local.getUTCDate() - sinceMonday);
  return { from: day(new Date(monday - 7 * 86400000)), to: day(new Date(monday - 86400000)) };
}

/** The unique key of a report: its type and period. */
export const reportKey = (type: string, period: Period): string => `${type}:${period.from}:${period.to}`;
