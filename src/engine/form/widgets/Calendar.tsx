import { useMemo, useState } from 'react';
import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons';
import type { Locale } from '../../../shared/locales.ts';
import { businessToday, isDateAllowed, isoToDisplay, monthGrid, toIsoDate, type DateLimits } from '../dates.ts';
import { useTranslator } from '../useTranslator.ts';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: '252px' },
  header: { display: 'flex', alignItems: 'center', justifyContent: 'space-between' },
  title: { fontWeight: tokens.fontWeightSemibold, textTransform: 'capitalize' },
  grid: { borderCollapse: 'collapse' },
  weekday: {
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground3,
    fontWeight: tokens.fontWeightRegular,
    padding: '2px',
  },
  day: { minWidth: '32px', width: '32px', height: '32px', padding: 0 },
  today: { border: `${tokens.strokeWidthThin} solid ${tokens.colorBrandStroke1}` },
});

const LANGUAGE_TAGS: Record<Locale, string> = { uz: 'uz-Latn', uzCyrillic: 'uz-Cyrl', ru: 'ru', en: 'en-GB' };

export interface CalendarProps {
  /** The chosen day, YYYY-MM-DD. */
  value: string | undefined;
  limits: DateLimits;
  locale: Locale;
  onSelect(iso: string): void;
}

/** A month of days to pick from; days outside the limits are disabled. */
export function Calendar({ value, limits, locale, onSelect }: CalendarProps) {
  const styles = useStyles();
  const i18n = useTranslator();
  const today = businessToday();
  const start = value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : today;
  const [month, setMonth] = useState(() => ({
    year: Number(start.slice(0, 4)),
    month0: Number(start.slice(5, 7)) - 1,
  }));
  const tag = LANGUAGE_TAGS[locale];
  const { title, weekdays } = useMemo(() => {
    const monthName = new Intl.DateTimeFormat(tag, { month: 'long', year: 'numeric' }).format(
      new Date(month.year, month.month0, 1),
    );
    // 2024-01-01 was a Monday.
    const day = new Intl.DateTimeFormat(tag, { weekday: 'short' });
    return { title: monthName, weekdays: Array.from({ length: 7 }, (_, i) => day.format(new Date(2024, 0, 1 + i))) };
  }, [tag, month]);
  const shift = (delta: number) =>
    setMonth(({ year, month0 }) => {
      const d = new Date(year, month0 + delta, 1);
      return { year: d.getFullYear(), month0: d.getMonth() };
    });

  return (
    <div className={styles.root} data-calendar>
      <div className={styles.header}>
        <Button
          appearance="subtle"
          size="small"
          icon={<ChevronLeftRegular />}
          aria-label={i18n.t('engine.form.date.previousMonth')}
          onClick={() => shift(-1)}
        />
        <span className={styles.title} aria-live="polite">
          {title}
        </span>
        <Button
          appearance="subtle"
          size="small"
          icon={<ChevronRightRegular />}
          aria-label={i18n.t('engine.form.date.nextMonth')}
          onClick={() => shift(1)}
        />
      </div>
      <table className={styles.grid} role="grid">
        <thead>
          <tr>
            {weekdays.map((w) => (
              <th key={w} className={styles.weekday} scope="col">
                {w}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(month.year, month.month0).map((week, w) => (
            <tr key={w}>
              {week.map((day, d) => {
                if (!day) return <td key={d} />;
                const iso = toIsoDate(day);
                return (
                  <td key={d}>
                    <Button
                      className={mergeClasses(styles.day, iso === today && styles.today)}
                      size="small"
                      appearance={iso === value ? 'primary' : 'subtle'}
                      aria-label={isoToDisplay(iso)}
                      aria-pressed={iso === value}
                      autoFocus={iso === start}
                      disabled={!isDateAllowed(iso, limits, today)}
                      onClick={() => onSelect(iso)}
                    >
                      {day.getDate()}
                    </Button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
