/**
 * Dates as people here write them (DD.MM.YYYY, spec §9) and as the schema stores them
 * (`date`: YYYY-MM-DD; `date-time`: ISO 8601 with its zone).
 */
import type { Masked } from './masks.ts';
import { businessDate } from '../../shared/business-day.ts';

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The local calendar day of a Date as YYYY-MM-DD. */
export const toIsoDate = (d: Date): string => `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** Whether the day exists (no 31.02). */
export function isRealDate(year: number, month: number, day: number): boolean {
  const d = new Date(year, month - 1, day);
  return year >= 1000 && d.getFullYear() === year && d.getMonth() === month - 1 && d.getDate() === day;
}

/**
 * A stored date as shown: `2024-05-12` → `12.05.2024`; anything else → undefined.
 * @example isoToDisplay('2024-05-12') // '12.05.2024'
 */
export function isoToDisplay(value: unknown): string | undefined {
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return m ? `${m[3]}.${m[2]}.${m[1]}` : undefined;
}

/**
 * The DD.MM.YYYY mask: dots appear as digits are typed; a complete real date is stored as
 * YYYY-MM-DD, unfinished text as it is (the `date` format then says "enter a valid date").
 * @example maskDate('12052024') // { text: '12.05.2024', value: '2024-05-12' }
 */
export function maskDate(raw: string): Masked<string> {
  const d = raw.replace(/\D/g, '').slice(0, 8);
  if (!d) return { text: '', value: undefined };
  let text = d.slice(0, 2);
  if (d.length > 2) text += `.${d.slice(2, 4)}`;
  if (d.length > 4) text += `.${d.slice(4, 8)}`;
  if (d.length === 8) {
    const [day, month, year] = [Number(d.slice(0, 2)), Number(d.slice(2, 4)), Number(d.slice(4, 8))];
    if (isRealDate(year, month, day)) return { text, value: `${d.slice(4, 8)}-${d.slice(2, 4)}-${d.slice(0, 2)}` };
  }
  return { text, value: text };
}

/** Limits of a date picker (ui:options.disableFuture / disablePast). */
export interface DateLimits {
  disableFuture?: boolean;
  disablePast?: boolean;
}

/**
 * Today as the Committee counts it: the day in Tashkent, whatever the browser's zone (a
 * browser set to UTC is still on yesterday from 00:00 to 05:00 in Tashkent).
 * @example businessToday(new Date('2026-11-26T19:30:00Z')) // '2026-11-27'
 */
export const businessToday = (now: Date = new Date()): string => businessDate(now);

/**
 * Whether a YYYY-MM-DD day may be chosen, relative to `today` (also YYYY-MM-DD, by default
 * Tashkent's); today itself is always allowed.
 */
export function isDateAllowed(iso: string, limits: DateLimits, today: string = businessToday()): boolean {
  if (limits.disableFuture && iso > today) return false;
  if (limits.disablePast && iso < today) return false;
  return true;
}

/**
 * A stored date-time as shown in local time: DD.MM.YYYY hh:mm.
 * @example isoToDateTimeDisplay('2024-05-12T09:30:00+05:00') // '12.05.2024 09:30' in Tashkent
 */
export function isoToDateTimeDisplay(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return undefined;
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The DD.MM.YYYY hh:mm mask; a complete valid moment is stored as an ISO string (UTC).
 * @example maskDateTime('120520240930').text // '12.05.2024 09:30'
 */
export function maskDateTime(raw: string): Masked<string> {
  const d = raw.replace(/\D/g, '').slice(0, 12);
  if (!d) return { text: '', value: undefined };
  const date = maskDate(d.slice(0, 8));
  let text = date.text;
  if (d.length > 8) text += ` ${d.slice(8, 10)}`;
  if (d.length > 10) text += `:${d.slice(10, 12)}`;
  if (d.length === 12 && date.value && date.value !== date.text) {
    const [hh, mm] = [Number(d.slice(8, 10)), Number(d.slice(10, 12))];
    if (hh < 24 && mm < 60) {
      const [y, mo, day] = date.value.split('-').map(Number) as [number, number, number];
      return { text, value: new Date(y, mo - 1, day, hh, mm).toISOString() };
    }
  }
  return { text, value: text };
}

/** The weeks of a month for a calendar, Monday first; days of other months are null. */
export function monthGrid(year: number, month0: number): (Date | null)[][] {
  const first = new Date(year, month0, 1);
  const offset = (first.getDay() + 6) % 7;
  const days = new Date(year, month0 + 1, 0).getDate();
  const cells: (Date | null)[] = [...Array<null>(offset).fill(null)];
  for (let day = 1; day <= days; day++) cells.push(new Date(year, month0, day));
  while (cells.length % 7) cells.push(null);
  const weeks: (Date | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}
