import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Input, makeStyles, type InputProps } from '@fluentui/react-components';
import type { WidgetProps } from '@rjsf/utils';
import type { Masked } from '../masks.ts';

/** What a masked widget adds to rjsf's widget props. */
export interface MaskedInputProps<V> {
  widget: WidgetProps;
  /** Turns typed text into what is shown and what is stored. */
  mask(raw: string): Masked<V>;
  /** The text a stored value shows (for values set from outside: loading, lookups, a calendar). */
  display(value: unknown): string;
  inputMode?: InputProps['inputMode'];
  placeholder?: string;
  contentAfter?: InputProps['contentAfter'];
  /** Called after a person typed (not when the value came from outside), with the new value. */
  onTyped?(value: V | undefined): void;
}

// Full width like the other inputs, also when a widget wraps the input in its own element.
const useStyles = makeStyles({ input: { width: '100%' } });

const countDigits = (s: string): number => s.replace(/\D/g, '').length;

/** Where the caret goes in the re-masked text: after as many digits as were before it. */
function caretFor(text: string, digitsBefore: number, atEnd: boolean): number {
  if (atEnd) return text.length;
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    if (seen === digitsBefore) return i;
    if (/\d/.test(text[i]!)) seen++;
  }
  return text.length;
}

/**
 * An input whose text is re-masked as the person types (phone, STIR, money, dates), keeping
 * the caret after the same digit. The form stores the mask's value, not the text.
 */
export function MaskedInput<V>({
  widget,
  mask,
  display,
  inputMode,
  placeholder,
  contentAfter,
  onTyped,
}: MaskedInputProps<V>) {
  const { id, htmlName, value, readonly, disabled, autofocus, onChange, onBlur, onFocus } = widget;
  const styles = useStyles();
  const [text, setText] = useState(() => display(value));
  const textRef = useRef(text);
  textRef.current = text;
  const input = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);

  // A value set from outside replaces the text, unless the text already means that value
  // (only changes of the value matter here, so `mask` and `display` are not dependencies).
  useEffect(() => {
    if (!Object.is(mask(textRef.current).value ?? undefined, value ?? undefined)) setText(display(value));
  }, [value]);

  useLayoutEffect(() => {
    const el = input.current;
    if (caret.current !== null && el && el.ownerDocument.activeElement === el)
      el.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [text]);

  return (
    <Input
      id={id}
      name={htmlName ?? id}
      className={styles.input}
      ref={input}
      value={text}
      inputMode={inputMode}
      placeholder={readonly ? undefined : placeholder}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      // `ui:autocomplete` (a citizen's own `tel`): the browser offers what it knows.
      autoComplete={widget.options.autocomplete}
      contentAfter={contentAfter}
      onChange={(e) => {
        const raw = e.target.value;
        const at = e.target.selectionStart ?? raw.length;
        const next = mask(raw);
        caret.current = caretFor(next.text, countDigits(raw.slice(0, at)), at >= raw.length);
        setText(next.text);
        onChange(next.value);
        onTyped?.(next.value);
      }}
      onBlur={() => onBlur(id, mask(textRef.current).value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}
