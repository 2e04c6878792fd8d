import { Checkbox } from '@fluentui/react-components';
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
