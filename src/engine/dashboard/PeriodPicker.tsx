import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardFilter } from '../../generated/meta.ts';
import {
  businessToday,
  customPeriod,
  monthPeriod,
  parsePeriod,
  quarterPeriod,
  yearPeriod,
  type PeriodUnit,
} from '../../shared/periods.ts';
import { DateFilterInput } from '../list/DateFilterInput.tsx';
import { useStyles } from './styles.ts';

/** How many years back the year lists offer (and the selected one, whenever it is). */
const YEARS_BACK = 10;

/**
 * The period filter (`filter.period`): one group of controls — the unit (only the declared
 * ones: month, quarter, year, custom) and its value (a month; a year and Q1–Q4; a year; two
 * days typed as DD.MM.YYYY like the list filters). A reversed custom range says so under the
 * boxes and is not sent; every complete change replaces the URL value at once.
 */
export function PeriodPicker({
  filter,
  value,
  onChange,
}: {
  filter: DashboardFilter;
  value: string;
  onChange(v: string): void;
}) {
  const { t } = useTranslation();
  const s = useStyles();
  const units = filter.period!.units as PeriodUnit[];
  const period = parsePeriod(value);
  const from = period?.from ?? businessToday();
  const y = Number(from.slice(0, 4));
  const m = Number(from.slice(5, 7));
  const [days, setDays] = useState({ from: period?.from ?? '', to: period?.to ?? '' });
  // Another value from outside (back/forward, a shared link) replaces the typed days.
  useEffect(() => setDays({ from: period?.from ?? '', to: period?.to ?? '' }), [period?.from, period?.to]);
  const reversed = Boolean(days.from && days.to && days.from > days.to);
  const thisYear = Number(businessToday().slice(0, 4));
  const years = [...new Set([...Array.from({ length: YEARS_BACK + 1 }, (_, i) => thisYear - i), y])].sort(
    (a, b) => b - a,
  );
  const id = `filter-${filter.name}`;
  const unit = period?.unit ?? units[0]!;

  const pickUnit = (next: PeriodUnit) => {
    if (next === 'month') onChange(monthPeriod(y, m).text);
    else if (next === 'quarter') onChange(quarterPeriod(y, Math.ceil(m / 3)).text);
    else if (next === 'year') onChange(yearPeriod(y).text);
    else if (period) onChange(`${period.from}..${period.to}`);
  };
  const putDay = (which: 'from' | 'to', iso: string) => {
    const next = { ...days, [which]: iso };
    setDays(next);
    const p = next.from && next.to ? customPeriod(next.from, next.to) : undefined;
    if (p) onChange(p.text);
  };
  const yearSelect = (onYear: (year: number) => void, label: string) => (
    <select
      className={s.control}
      aria-label={label}
      data-period-part="year"
      value={y}
      onChange={(e) => onYear(Number(e.target.value))}
    >
      {years.map((year) => (
        <option key={year} value={year}>
          {year}
        </option>
      ))}
    </select>
  );

  return (
    <fieldset className={s.period} data-filter={filter.name} data-unit={unit}>
      <legend className={s.legend}>{t(filter.titleKey)}</legend>
      {units.length > 1 && (
        <select
          id={id}
          className={s.control}
          aria-label={t('engine.dashboard.period.unit')}
          data-period-part="unit"
          value={unit}
          onChange={(e) => pickUnit(e.target.value as PeriodUnit)}
        >
          {units.map((u) => (
            <option key={u} value={u}>
              {t(`engine.dashboard.period.units.${u}`)}
            </option>
          ))}
        </select>
      )}
      {unit === 'month' && (
        <input
          type="month"
          className={s.control}
          aria-label={t('engine.dashboard.period.month')}
          data-period-part="month"
          value={period?.text ?? ''}
          onChange={(e) => parsePeriod(e.target.value) && onChange(e.target.value)}
        />
      )}
      {unit === 'quarter' && (
        <>
          {yearSelect(
            (year) => onChange(quarterPeriod(year, Math.ceil(m / 3)).text),
            t('engine.dashboard.period.year'),
          )}
          <select
            className={s.control}
            aria-label={t('engine.dashboard.period.quarter')}
            data-period-part="quarter"
            value={Math.ceil(m / 3)}
            onChange={(e) => onChange(quarterPeriod(y, Number(e.target.value)).text)}
          >
            {[1, 2, 3, 4].map((q) => (
              <option key={q} value={q}>
                {t('engine.dashboard.period.quarterShort', { q })}
              </option>
            ))}
          </select>
        </>
      )}
      {unit === 'year' && yearSelect((year) => onChange(yearPeriod(year).text), t('engine.dashboard.period.year'))}
      {unit === 'custom' && (
        <div className={s.days}>
          <DateFilterInput
            value={days.from}
            label={t('engine.dashboard.period.from')}
            invalid={reversed}
            onCommit={(iso) => putDay('from', iso)}
          />
          <DateFilterInput
            value={days.to}
            label={t('engine.dashboard.period.to')}
            invalid={reversed}
            onCommit={(iso) => putDay('to', iso)}
          />
          {reversed && (
            <span role="alert" className={s.error} data-error="reversed">
              {t('engine.dashboard.period.reversed')}
            </span>
          )}
        </div>
      )}
    </fieldset>
  );
}
