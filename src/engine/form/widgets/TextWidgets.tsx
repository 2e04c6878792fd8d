/**
 * The plain widgets: text, long text, number (clamped to the schema's bounds on blur), hidden.
 */
import { useEffect, useRef, useState } from 'react';
import { Input, Textarea } from '@fluentui/react-components';
import { getSchemaType, getTemplate, type WidgetProps } from '@rjsf/utils';
import { translateKnown } from '../messages.ts';
import { clampNumber, parseNumber } from '../masks.ts';
import { useTranslator } from '../useTranslator.ts';
import { useRowCommit } from '../row-commit.ts';

const numberText = (value: unknown): string =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : '';

/**
 * A number typed as text (a dot or a comma for decimals). Unfinished text (`-`, `1.`) is kept
 * on screen; on blur the number is clamped to the schema's minimum and maximum (spec §5) and
 * an integer field is rounded.
 */
export function NumberWidget(props: WidgetProps) {
  const { id, htmlName, value, schema, readonly, disabled, autofocus, placeholder, onChange, onBlur, onFocus } = props;
  const i18n = useTranslator();
  const [text, setText] = useState(() => numberText(value));
  const textRef = useRef(text);
  textRef.current = text;
  // In a long list the form takes the number in a transition (../row-commit.ts).
  const commit = useRowCommit(onChange);
  const pendingRef = useRef(commit.pending);
  pendingRef.current = commit.pending;
  // Only outside changes of the value replace the text (a lookup, a reset), not one that
  // arrives while a later key press is still on its way to the form.
  useEffect(() => {
    if (!pendingRef.current && parseNumber(textRef.current) !== value) setText(numberText(value));
  }, [value]);
  const integer = getSchemaType(schema) === 'integer';
  return (
    <Input
      id={id}
      name={htmlName ?? id}
      value={text}
      inputMode={integer ? 'numeric' : 'decimal'}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      placeholder={translateKnown(i18n, placeholder) ?? placeholder}
      onChange={(e) => {
        const clean = e.target.value.replace(/[^0-9.,-]/g, '');
        setText(clean);
        commit.change(parseNumber(clean));
      }}
      onKeyDown={commit.onKeyDown}
      onBlur={() => {
        commit.flush();
        const typed = parseNumber(textRef.current);
        const clamped =
          typed === undefined
            ? undefined
            : clampNumber(typed, { minimum: schema.minimum, maximum: schema.maximum, integer });
        if (clamped !== typed || numberText(clamped) !== textRef.current) {
          setText(numberText(clamped));
          if (clamped !== typed) onChange(clamped);
        }
        onBlur(id, clamped);
      }}
      onFocus={() => onFocus(id, value)}
    />
  );
}

/** One line of text; numbers get the number widget. */
export function TextWidget(props: WidgetProps) {
  const type = getSchemaType(props.schema);
  if (type === 'number' || type === 'integer') return <NumberWidget {...props} />;
  const BaseInput = getTemplate('BaseInputTemplate', props.registry, props.options);
  return <BaseInput {...props} type="text" />;
}

/** Several lines of text (`ui:options.rows`, default 4). */
export function TextareaWidget(props: WidgetProps) {
  const {
    id,
    htmlName,
    value,
    schema,
    options,
    readonly,
    disabled,
    autofocus,
    placeholder,
    onChange,
    onBlur,
    onFocus,
  } = props;
  const i18n = useTranslator();
  return (
    <Textarea
      id={id}
      name={htmlName ?? id}
      value={typeof value === 'string' ? value : ''}
      rows={typeof options.rows === 'number' ? options.rows : 4}
      resize="vertical"
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      placeholder={translateKnown(i18n, placeholder) ?? placeholder}
      maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : undefined}
      onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}

/** A value kept in the form but not shown (set by actions, e.g. an executor id). */
export function HiddenWidget({ id, htmlName, value }: WidgetProps) {
  return (
    <input
      type="hidden"
      id={id}
      name={htmlName ?? id}
      value={value === undefined || value === null ? '' : String(value)}
    />
  );
}
