import { Checkbox, FieldContextProvider } from '@fluentui/react-components';
import type { WidgetProps } from '@rjsf/utils';
import { translateTitle } from '../messages.ts';
import { useTranslator } from '../useTranslator.ts';

/** A yes/no box with its translated label beside it (read-only: disabled). */
export function CheckboxWidget(props: WidgetProps) {
  const { id, htmlName, value, label, required, disabled, readonly, autofocus, onChange, onBlur, onFocus } = props;
  const i18n = useTranslator();
  return (
    <Checkbox
      id={id}
      name={htmlName ?? id}
      checked={value === true}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      required={required}
      label={translateTitle(i18n, label)}
      onChange={(_, data) => onChange(data.checked === true)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

/**
 * Several choices as a group of boxes (`ui:widget: "checkboxes"` on an array of unique
 * choices): the options are the items' `oneOf` titles (translated when they are keys); the
 * value keeps the options' order. Read-only: disabled boxes.
 */
export function CheckboxesWidget(props: WidgetProps) {
  const { id, value, label, disabled, readonly, options, onChange, onBlur, onFocus } = props;
  const i18n = useTranslator();
  const selected: unknown[] = Array.isArray(value) ? value : [];
  const choices = options.enumOptions ?? [];
  const toggle = (choice: unknown, on: boolean) => {
    const next = choices.map((c) => c.value).filter((v) => (v === choice ? on : selected.includes(v)));
    onChange(next);
  };
  return (
    <div
      id={id}
      role="group"
      aria-label={translateTitle(i18n, label)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      style={{ display: 'flex', flexDirection: 'column' }}
    >
      {/* Each box is named by its own option, not by the surrounding field (its label names the group). */}
      <FieldContextProvider value={undefined}>
        {choices.map((c, i) => (
          <Checkbox
            key={String(c.value)}
            id={`${id}-${i}`}
            data-choice={i}
            checked={selected.includes(c.value)}
            disabled={disabled || readonly}
            label={translateTitle(i18n, String(c.label))}
            onChange={(_, data) => toggle(c.value, data.checked === true)}
          />
        ))}
      </FieldContextProvider>
    </div>
  );
}
