import { useContext, useRef, type ComponentType } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import { deepEquals, type ErrorSchema, type FieldProps } from '@rjsf/utils';
import { LONG_LIST, LongListContext } from '../row-commit.ts';

const DefaultArrayField = getDefaultRegistry().fields.ArrayField as ComponentType<FieldProps>;

/** The previous value when it is deeply equal to the new one, so memoized children can skip. */
function useStable<T>(value: T): T {
  const ref = useRef(value);
  if (ref.current !== value && !deepEquals(ref.current, value)) ref.current = value;
  return ref.current;
}

/** A new array or object whose unchanged entries keep their previous identity. */
function useStableEntries<T>(value: T): T {
  const ref = useRef(value);
  const prev = ref.current as unknown;
  if (value === prev || !value || typeof value !== 'object' || !prev || typeof prev !== 'object') {
    ref.current = value;
    return value;
  }
  const old = prev as Record<string, unknown>;
  const next = value as Record<string, unknown>;
  const shared = (Array.isArray(value) ? [...(value as unknown[])] : { ...next }) as Record<string, unknown>;
  for (const key of Object.keys(next)) if (key in old && deepEquals(old[key], next[key])) shared[key] = old[key];
  ref.current = shared as T;
  return ref.current;
}

/**
 * rjsf's ArrayField with structural sharing. rjsf clones the whole form data on every change,
 * so each row would look new and re-render; here rows (and their errors) that did not change
 * keep their identity, rjsf's memoized rows skip, and typing in one of 300 rows renders one.
 * In a list of {@link LONG_LIST} rows or more, the fields take what is typed in a transition.
 */
export function ArrayField(props: FieldProps) {
  const schema = useStable(props.schema);
  const uiSchema = useStable(props.uiSchema);
  const formData = useStableEntries(props.formData);
  const errorSchema = useStableEntries(props.errorSchema as ErrorSchema | undefined);
  // In a long list (or a row of one) typing hands values over in a transition (../row-commit.ts).
  const long = useContext(LongListContext) || (Array.isArray(formData) && formData.length >= LONG_LIST);
  return (
    <LongListContext.Provider value={long}>
      <DefaultArrayField {...props} schema={schema} uiSchema={uiSchema} formData={formData} errorSchema={errorSchema} />
    </LongListContext.Provider>
  );
}
