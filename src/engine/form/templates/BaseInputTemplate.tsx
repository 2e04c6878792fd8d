import { useState, type ChangeEvent } from 'react';
import { Input, type InputProps } from '@fluentui/react-components';
import { getInputProps, type BaseInputTemplateProps } from '@rjsf/utils';
import { translateKnown } from '../messages.ts';
import { useTranslator } from '../useTranslator.ts';
import { useRowCommit } from '../row-commit.ts';

/**
 * The plain input of rjsf's standard widgets (text, e-mail, URL, password), as a Fluent Input.
 * Empty text is stored as `ui:emptyValue` (undefined by default), so "required" means filled.
 */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const {
    id,
    htmlName,
    value,
    type,
    schema,
    options,
    readonly,
    disabled,
    autofocus,
    placeholder,
    onChange,
    onChangeOverride,
    onBlur,
    onFocus,
  } = props;
  const i18n = useTranslator();
  const inputProps = getInputProps(schema, type, options);
  // In a long list the form takes the text in a transition; meanwhile the input shows its own.
  const commit = useRowCommit(onChange);
  const [typed, setTyped] = useState('');
  const handleChange =
    onChangeOverride ??
    ((e: ChangeEvent<HTMLInputElement>) => {
      setTyped(e.target.value);
      commit.change(e.target.value === '' ? options.emptyValue : e.target.value);
    });
  const shown = commit.pending ? typed : value === undefined || value === null ? '' : String(value);
  return (
    <Input
      id={id}
      name={htmlName ?? id}
      type={inputProps.type as InputProps['type']}
      value={shown}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      placeholder={translateKnown(i18n, placeholder) ?? placeholder}
      maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : undefined}
      // `ui:autocomplete` (username, current-password, tel, one-time-code…): browsers and password managers fill it.
      autoComplete={inputProps.autoComplete}
      onChange={handleChange}
      onKeyDown={commit.onKeyDown}
      onBlur={(e) => {
        commit.flush();
        onBlur(id, e.target.value);
      }}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}
