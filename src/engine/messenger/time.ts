import { formatDateTime, tashkentParts } from '../../shared/format.ts';

/**
 * A message's time as the rest of the portal shows times: Tashkent wall-clock, 24-hour
 * (src/shared/format.ts) — hh:mm for today's message, with the date before it otherwise.
 * @example messageTime('2026-11-23T10:05:00Z', new Date('2026-11-23T12:00:00Z')) // '15:05'
 */
export function messageTime(value: string, now: Date = new Date()): string {
  const shown = formatDateTime(value);
  if (!shown) return '';
  const p = tashkentParts(new Date(value));
  const today = tashkentParts(now);
  const sameDay = p.year === today.year && p.month === today.month && p.day === today.day;
  return sameDay ? shown.slice(11) : shown;
}
