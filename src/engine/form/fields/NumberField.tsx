import type { ComponentType } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import { asNumber, getUiOptions, type FieldProps } from '@rjsf/utils';

const DefaultNumberField = getDefaultRegistry().fields.NumberField as ComponentType<FieldProps>;

/** Widgets that hand the field a number (or an id) rather than text someone typed. */
const CHOICE_WIDGETS = new Set(['select', 'reference', 'radio', 'staffUser', 'entityRef', 'hidden']);

/**
 * rjsf's NumberField keeps what someone is typing ("1.", "0.50") while the value is the number
 * — which needs the browser's decimal separator, asked on every render through
 * `Intl.NumberFormat` (the first such call of a page loads the browser's number data: a long
 * pause on a phone). A number chosen rather than typed (a reference, a select, a radio, a
 * picker) has nothing to keep, so such fields go straight to the string field, as rjsf's own
 * field does for them in the end.
 */
export function NumberField(props: FieldProps) {
  const { uiSchema, registry, schema, onChange } = props;
  const { widget } = getUiOptions(uiSchema, registry.globalUiOptions);
  const chosen =
    (typeof widget === 'string' && CHOICE_WIDGETS.has(widget)) ||
    schema.enum !== undefined ||
    schema.oneOf !== undefined;
  if (!chosen) return <DefaultNumberField {...props} />;
  const StringField = registry.fields.StringField as ComponentType<FieldProps>;
  const change: FieldProps['onChange'] = (value, ...rest) =>
    onChange(typeof value === 'string' ? asNumber(value) : value, ...rest);
  return <StringField {...props} onChange={change} />;
}
