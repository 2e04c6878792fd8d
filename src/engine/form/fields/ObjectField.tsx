import type { ComponentType } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import { getUiOptions, type FieldProps } from '@rjsf/utils';
import { objectWidgetNames } from '../widgets/names.ts';

const DefaultObjectField = getDefaultRegistry().fields.ObjectField as ComponentType<FieldProps>;

/**
 * rjsf's ObjectField, except that an object whose `ui:widget` names an object widget (the map
 * point) is edited by that widget as one value instead of field by field.
 */
export function ObjectField(props: FieldProps) {
  const { uiSchema, registry, fieldPathId, formData, schema, name, title, onChange, onBlur, onFocus } = props;
  const { widget, ...options } = getUiOptions(uiSchema, registry.globalUiOptions);
  const Widget = typeof widget === 'string' && objectWidgetNames.has(widget) ? registry.widgets[widget] : undefined;
  if (!Widget) return <DefaultObjectField {...props} />;
  return (
    <Widget
      id={fieldPathId.$id}
      name={name}
      label={title ?? schema.title ?? name}
      value={formData}
      schema={schema}
      uiSchema={uiSchema}
      registry={registry}
      options={options}
      required={props.required}
      disabled={props.disabled}
      readonly={props.readonly}
      hideError={props.hideError}
      autofocus={props.autofocus}
      rawErrors={props.rawErrors}
      onChange={(value: unknown) => onChange(value, fieldPathId.path)}
      onBlur={onBlur}
      onFocus={onFocus}
    />
  );
}
