/**
 * Typing in a long list (a report's hundreds of rows): the field shows each key at once, and the
 * form takes the value when typing pauses ({@link ROW_COMMIT_MS}). Every change makes rjsf compute
 * the whole form's defaults and conditions again (tens of milliseconds for 300 rows), which taken
 * at each key delayed every key press; now only the input being typed in renders for a key.
 * (A React transition was tried first: restarted at every key, it cost twice as much.)
 *
 * What is still pending is taken at once when the field loses focus and on Enter or a key with
 * Ctrl, Alt or Meta: a submit, a step's Next, a shortcut and a link all read the form's state
 * after one of these. Elsewhere (a list under {@link LONG_LIST} rows, any other field) a change
 * is taken as before, at once.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';

/** Rows from which a list's fields hand their changes over in a transition. */
export const LONG_LIST = 50;

/** Whether the fields below are in a list of {@link LONG_LIST} rows or more (set by the engine's ArrayField). */
export const LongListContext = createContext(false);

export interface RowCommit<T> {
  /** Hands a typed value to the form: at once, or when typing pauses inside a long list. */
  change(value: T): void;
  /** Takes what is still pending at once (blur; Enter and shortcut keys through {@link RowCommit.onKeyDown}). */
  flush(): void;
  /** For the input's onKeyDown: flushes before Enter submits or a shortcut acts. */
  onKeyDown(event: KeyboardEvent): void;
  /** Whether a typed value has not reached the form yet (show the field's own text meanwhile). */
  pending: boolean;
}

/** Whether data holds a list of {@link LONG_LIST} rows or more (at any depth). */
export function holdsLongList(value: unknown): boolean {
  if (Array.isArray(value)) return value.length >= LONG_LIST || value.some(holdsLongList);
  if (value && typeof value === 'object') return Object.values(value).some(holdsLongList);
  return false;
}

/** How long typing must pause before a long list's field hands its value to the form. */
export const ROW_COMMIT_MS = 250;

/** The commit of one field's typed values (see the top of this file). */
export function useRowCommit<T>(onChange: (value: T) => void): RowCommit<T> {
  const deferred = useContext(LongListContext);
  const [pending, setPending] = useState(false);
  const latest = useRef<{ value: T } | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const commitNow = useCallback(() => {
    clearTimeout(timer.current);
    const typed = latest.current;
    if (!typed) return;
    latest.current = undefined;
    onChangeRef.current(typed.value);
    setPending(false);
  }, []);
  // A field that goes (its row removed) drops what it held: the row is no longer there to take it.
  useEffect(() => () => clearTimeout(timer.current), []);
  const change = useCallback(
    (value: T) => {
      if (!deferred) {
        onChangeRef.current(value);
        return;
      }
      latest.current = { value };
      setPending(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(commitNow, ROW_COMMIT_MS);
    },
    [deferred, commitNow],
  );
  const flush = useCallback(() => {
    if (latest.current) flushSync(commitNow);
  }, [commitNow]);
  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      if (event.key === 'Enter' || event.ctrlKey || event.altKey || event.metaKey) flush();
    },
    [flush],
  );
  return { change, flush, onKeyDown, pending: deferred && pending };
}
