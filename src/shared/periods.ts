import { BUSINESS_TIME_ZONE } from './time-zone.ts';

/**
 * Reporting periods of the dashboards, as they travel in a URL: a month `2025-07`, a quarter
 * `2025-Q3`, a year `2025` or a custom range of days `2025-07-01..2025-09-30`. Each resolves
 * to its first and last day (inclusive, YYYY-MM-DD) and to the period of the same length
 * just before it, for quarter-over-quarter comparison.
 */
export type PeriodUnit = 'month' | 'quarter' | 'year' | 'custom';

export interface Period {
  unit: PeriodUnit;
  /** The URL form. */
  text: string;
  /** First day, YYYY-MM-DD. */
  from: string;
  /** Last day (inclusive), YYYY-MM-DD. */
  to: string;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const day = (y: number, m: number, d: number): string => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
/** Days in month m (1-12) of year y. */
const daysIn = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();
const isDay = (s: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(y, mo);
};
const toUtc = (s: string): number => Date.UTC(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, Number(s.slice(8, 10)));
const fromUtc = (t: number): string => new Date(t).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

/** A month period. */
export const monthPeriod = (y: number, m: number): Period => ({
  unit: 'month',
  text: `${pad(y, 4)}-${pad(m)}`,
  from: day(y, m, 1),
  to: day(y, m, daysIn(y, m)),
});
/** A quarter period (q 1-4). */
export const quarterPeriod = (y: number, q: number): Period => ({
  unit: 'quarter',
  text: `${pad(y, 4)}-Q${q}`,
  from: day(y, q * 3 - 2, 1),
  to: day(y, q * 3, daysIn(y, q * 3)),
});
/** A year period. */
export const yearPeriod = (y: number): Period => ({
  unit: 'year',
  text: pad(y, 4),
  from: day(y, 1, 1),
  to: day(y, 12, 31),
});

/**
 * The period a URL value names, or undefined when it names none (a typo, a reversed range,
 * a day that does not exist).
 * @example parsePeriod('2025-Q3') // { unit: 'quarter', text: '2025-Q3', from: '2025-07-01', to: '2025-09-30' }
 */
export function parsePeriod(text: string | null | undefined): Period | undefined {
  if (!text) return undefined;
  let m = /^(\d{4})-(\d{2})$/.exec(text);
  if (m) return Number(m[2]) >= 1 && Number(m[2]) <= 12 ? monthPeriod(Number(m[1]), Number(m[2])) : undefined;
  m = /^(\d{4})-Q([1-4])$/.exec(text);
  if (m) return quarterPeriod(Number(m[1]), Number(m[2]));
  m = /^(\d{4})$/.exec(text);
  if (m) return yearPeriod(Number(m[1]));
  m = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(text);
  if (m && isDay(m[1]!) && isDay(m[2]!) && m[1]! <= m[2]!) return { unit: 'custom', text, from: m[1]!, to: m[2]! };
  return undefined;
}

/** A custom period from two days (undefined when reversed or not days). */
export const customPeriod = (from: string, to: string): Period | undefined => parsePeriod(`${from}..${to}`);

/**
 * The period of the same kind just before: the previous month, quarter or year; for a custom
 * range, the same number of days ending the day before it starts.
 * @example previousPeriod(parsePeriod('2025-Q1')!).text // '2024-Q4'
 */
export function previousPeriod(p: Period): Period {
  const y = Number(p.from.slice(0, 4));
  const m = Number(p.from.slice(5, 7));
  if (p.unit === 'month') return m === 1 ? monthPeriod(y - 1, 12) : monthPeriod(y, m - 1);
  if (p.unit === 'quarter') {
    const q = Math.ceil(m / 3);
    return q === 1 ? quarterPeriod(y - 1, 4) : quarterPeriod(y, q - 1);
  }
  if (p.unit === 'year') return yearPeriod(y - 1);
  const length = (toUtc(p.to) - toUtc(p.from)) / DAY_MS;
  const to = fromUtc(toUtc(p.from) - DAY_MS);
  const from = fromUtc(toUtc(to) - length * DAY_MS);
  return { unit: 'custom', text: `${from}..${to}`, from, to };
}

/** Today in Tashkent as YYYY-MM-DD. */
export const businessToday = (now: Date = new Date()): string =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: BUSINESS_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);

/**
 * The current month, quarter or year in Tashkent.
 * @example currentPeriod('quarter', new Date('2025-08-10')).text // '2025-Q3'
 */
export function currentPeriod(unit: Exclude<PeriodUnit, 'custom'>, now: Date = new Date()): Period {
  const today = businessToday(now);
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  if (unit === 'month') return monthPeriod(y, m);
  if (unit === 'quarter') return quarterPeriod(y, Math.ceil(m / 3));
  return yearPeriod(y);
}
