/**
 * Dates as DD.MM.YYYY (stored YYYY-MM-DD) with a calendar popup that can refuse future or
 * past days, and date-times as DD.MM.YYYY hh:mm (stored as an ISO moment).
 */
import { useCallback, useState } from 'react';
import { Button, makeStyles, Popover, PopoverSurface, tokens } from '@fluentui/react-components';
import { CalendarRegular } from '@fluentui/react-icons';
import type { WidgetProps } from '@rjsf/utils';
import { formContextOf } from '../context.ts';
import {
  isDateAllowed,
  isoToDateTimeDisplay,
  isoToDisplay,
  maskDate,
  maskDateTime,
  businessToday,
  type DateLimits,
} from '../dates.ts';
import type { Masked } from '../masks.ts';
import { useTranslator } from '../useTranslator.ts';
import { Calendar } from './Calendar.tsx';
import { MaskedInput } from './MaskedInput.tsx';

const useStyles = makeStyles({
  refused: {
    color: tokens.colorPaletteRedForeground1,
    fontSize: tokens.fontSizeBase200,
    marginTop: tokens.spacingVerticalXXS,
  },
});

const dateText = (value: unknown): string => isoToDisplay(value) ?? (typeof value === 'string' ? value : '');
const dateTimeText = (value: unknown): string =>
  isoToDateTimeDisplay(value) ?? (typeof value === 'string' ? value : '');

/** The day a complete DD.MM.YYYY text names, when it is one the limits refuse. */
function refusedDay(value: unknown, limits: DateLimits): string | undefined {
  if (typeof value !== 'string' || !/^\d{2}\.\d{2}\.\d{4}$/.test(value)) return undefined;
  const iso = maskDate(value).value;
  return iso && iso !== value && !isDateAllowed(iso, limits) ? iso : undefined;
}

/**
 * A date typed as DD.MM.YYYY or picked in the calendar; stores YYYY-MM-DD. With
 * `ui:options.disableFuture` / `disablePast` those days are disabled in the calendar, and a
 * typed one is kept as text (invalid, so it cannot be saved) with a message saying why.
 */
export function DateWidget(props: WidgetProps) {
  const { value, options, registry, readonly, disabled, onChange } = props;
  const styles = useStyles();
  const i18n = useTranslator();
  const [open, setOpen] = useState(false);
  const disableFuture = options.disableFuture === true;
  const disablePast = options.disablePast === true;
  const mask = useCallback(
    (raw: string): Masked<string> => {
      const m = maskDate(raw);
      return m.value && m.value !== m.text && !isDateAllowed(m.value, { disableFuture, disablePast })
        ? { text: m.text, value: m.text }
        : m;
    },
    [disableFuture, disablePast],
  );
  const refused = refusedDay(value, { disableFuture, disablePast });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) anchor?.focus();
  };
  // The popover is mounted only while open and anchored to a plain button (no
  // PopoverTrigger): a trigger, even closed, starts tabster's modalizer, which puts focusable
  // aria-hidden guards around the whole page — an accessibility failure on every form with a
  // date. Not modal: typing stays the main way in; the calendar is a helper that focuses its day.
  const calendar =
    readonly || disabled ? undefined : (
      <>
        <Button
          ref={setAnchor}
          appearance="transparent"
          size="small"
          icon={<CalendarRegular />}
          aria-label={i18n.t('engine.form.date.openCalendar')}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => setOpen(true)}
        />
        {open && anchor && (
          <Popover
            open
            onOpenChange={(event, data) => !data.open && close(event.type === 'keydown')}
            positioning={{ target: anchor, position: 'below', align: 'end' }}
          >
            <PopoverSurface>
              <Calendar
                value={isoToDisplay(value) ? (value as string) : undefined}
                limits={{ disableFuture, disablePast }}
                locale={formContextOf(registry).locale}
                onSelect={(iso) => {
                  onChange(iso);
                  close(true);
                }}
              />
            </PopoverSurface>
          </Popover>
        )}
      </>
    );
  return (
    <div>
      <MaskedInput
        widget={props}
        mask={mask}
        display={dateText}
        inputMode="numeric"
        placeholder={i18n.t('engine.form.date.placeholder')}
        contentAfter={calendar}
      />
      {refused && (
        <div role="alert" className={styles.refused}>
          {i18n.t(refused > businessToday() ? 'engine.form.date.noFuture' : 'engine.form.date.noPast')}
        </div>
      )}
    </div>
  );
}

/** A moment typed as DD.MM.YYYY hh:mm (local time); stores an ISO string. */
export function DateTimeWidget(props: WidgetProps) {
  const i18n = useTranslator();
  return (
    <MaskedInput
      widget={props}
      mask={maskDateTime}
      display={dateTimeText}
      inputMode="numeric"
      placeholder={i18n.t('engine.form.date.dateTimePlaceholder')}
    />
  );
}
