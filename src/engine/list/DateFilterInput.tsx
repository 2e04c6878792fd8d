/**
 * One day of a list's date filter, typed as DD.MM.YYYY or picked in a calendar — the same mask
 * (`../form/dates.ts`) and calendar as the forms' date widget, so a date reads and is typed the
 * same everywhere, whatever the browser's own date input would show. Reports a complete real
 * day as YYYY-MM-DD, an emptied box as ''; unfinished text stays in the box and reports
 * nothing, and a complete day that does not exist (31.02) says so under the box.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input, Popover, PopoverSurface, makeStyles, tokens } from '@fluentui/react-components';
import { CalendarRegular } from '@fluentui/react-icons';
import { isoToDisplay, maskDate } from '../form/dates.ts';
import { Calendar } from '../form/widgets/Calendar.tsx';
import { pickLocale } from '../../shared/locales.ts';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', minWidth: '0' },
  input: { width: '148px', minWidth: '0' },
  error: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
});

export interface DateFilterInputProps {
  /** The day in force, YYYY-MM-DD, or ''. */
  value: string;
  /** A complete real day (YYYY-MM-DD) or '' when the box was emptied. */
  onCommit(iso: string): void;
  label: string;
  /** Marks the box invalid (the range around it is reversed). */
  invalid?: boolean;
}

/** A DD.MM.YYYY box with a calendar button. */
export function DateFilterInput({ value, onCommit, label, invalid }: DateFilterInputProps) {
  const styles = useStyles();
  const { t, i18n } = useTranslation();
  const [text, setText] = useState(() => isoToDisplay(value) ?? '');
  const [open, setOpen] = useState(false);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // A value changed from outside (a chip removed, a view picked, back/forward) replaces the text.
  useEffect(() => setText(isoToDisplay(value) ?? ''), [value]);
  const complete = /^\d{2}\.\d{2}\.\d{4}$/.test(text);
  const unreal = complete && maskDate(text).value === text;
  const type = (raw: string) => {
    const masked = maskDate(raw);
    setText(masked.text);
    if (!masked.text) onCommit('');
    else if (masked.value && masked.value !== masked.text) onCommit(masked.value);
  };
  return (
    <div className={styles.root}>
      <Input
        className={styles.input}
        value={text}
        inputMode="numeric"
        aria-label={label}
        aria-invalid={unreal || invalid ? true : undefined}
        placeholder={t('engine.form.date.placeholder')}
        onChange={(_, d) => type(d.value)}
        contentAfter={
          <Button
            ref={setAnchor}
            appearance="transparent"
            size="small"
            icon={<CalendarRegular />}
            aria-label={`${label}: ${t('engine.form.date.openCalendar')}`}
            aria-haspopup="dialog"
            aria-expanded={open}
            onClick={() => setOpen(true)}
          />
        }
      />
      {open && anchor && (
        <Popover
          open
          onOpenChange={(_, d) => !d.open && setOpen(false)}
          positioning={{ target: anchor, position: 'below', align: 'end' }}
        >
          <PopoverSurface>
            <Calendar
              value={value || undefined}
              limits={{}}
              locale={pickLocale(i18n.language)}
              onSelect={(iso) => {
                setOpen(false);
                setText(isoToDisplay(iso) ?? '');
                onCommit(iso);
              }}
            />
          </PopoverSurface>
        </Popover>
      )}
      {unreal && (
        <span role="alert" className={styles.error}>
          {t('list.invalidDate')}
        </span>
      )}
    </div>
  );
}
