/**
 * The Committee's calendar: deadlines are days in Tashkent (time-zone.ts: UTC+5, no daylight
 * saving), not in UTC. A date-only deadline `2026-03-16` is due at the end of that
 * day in Tashkent — 23:59:59.999 local, 18:59:59.999 UTC — and "today" for a stamp or a
 * "15 days ahead" is the Tashkent calendar day of the moment, so a case taken up at 01:00 on
 * 3 May in Tashkent (20:00 UTC on 2 May) counts from 3 May. Pure and isomorphic: the server's
 * actions, the `due_at` column's SQL and the screens share these rules.
 */

import { BUSINESS_UTC_OFFSET_MINUTES } from './time-zone.ts';

const OFFSET_MS = BUSINESS_UTC_OFFSET_MINUTES * 60_000;
const DAY_MS = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The Tashkent calendar date (YYYY-MM-DD) of an instant, optionally `days` later.
 * @example businessDate(new Date('2026-05-02T19:30:00Z')) // '2026-05-03'
 * @example businessDate(new Date('2026-05-02T10:00:00Z'), 15) // '2026-05-17'
 */
export function businessDate(instant: Date, days = 0): string {
  return new Date(instant.getTime() + OFFSET_MS + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The last moment of a Tashkent calendar day (23:59:59.999 local = 18:59:59.999 UTC), or
 * null for anything that is not a `YYYY-MM-DD` date. A deadline on that day has passed once
 * the clock is after this instant.
 * @example endOfBusinessDay('2026-03-16')?.toISOString() // '2026-03-16T18:59:59.999Z'
 */
export function endOfBusinessDay(date: string): Date | null {
  const m = DATE_ONLY.exec(date);
  if (!m) return null;
  const midnightUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(midnightUtc + DAY_MS - OFFSET_MS - 1);
}

/**
 * Whether a deadline (a `YYYY-MM-DD` day in Tashkent, or an ISO instant) has passed at `now`.
 * Undefined when the value is not a deadline.
 * @example deadlinePassed('2026-03-16', new Date('2026-03-16T18:59:59Z')) // false
 */
export function deadlinePassed(deadline: unknown, now: Date): boolean | undefined {
  if (typeof deadline !== 'string' || deadline === '') return undefined;
  const due = endOfBusinessDay(deadline) ?? new Date(deadline);
  return Number.isNaN(due.getTime()) ? undefined : now.getTime() > due.getTime();
}
