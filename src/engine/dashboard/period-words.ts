import type { TFunction } from 'i18next';
import { isoToDisplay } from '../form/dates.ts';
import type { Period } from '../../shared/periods.ts';

/**
 * A period in words for the heading area, in the user's language: "July 2025",
 * "3rd quarter 2025", "2025 год", "01.07.2025 – 30.09.2025" (keys `engine.dashboard.period.words`).
 * @example periodWords(parsePeriod('2025-Q3')!, t) // '3rd quarter 2025'
 */
export function periodWords(period: Period, t: TFunction): string {
  const year = period.from.slice(0, 4);
  const month = Number(period.from.slice(5, 7));
  const key = 'engine.dashboard.period.words';
  if (period.unit === 'month') return t(`${key}.month`, { month: t(`engine.dashboard.period.months.m${month}`), year });
  if (period.unit === 'quarter') return t(`${key}.q${Math.ceil(month / 3)}`, { year });
  if (period.unit === 'year') return t(`${key}.year`, { year });
  return t(`${key}.custom`, { from: isoToDisplay(period.from), to: isoToDisplay(period.to) });
}
