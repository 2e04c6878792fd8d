/**
 * Choices: select, radio, multi-select and reference lists. Options come from the schema's
 * `oneOf` const/title (titles are i18n keys) or, when the schema has `reference: {list,
 * parentField?}`, from the reference list with localized names. A `parentField` makes a
 * cascade (region → district): only children of the sibling's value are listed, the field is
 * disabled until the sibling has a value and is cleared when the sibling changes. A view may
 * name a closed list itself: `ui:options.choices: [{value, labelKey}]`.
 */
import { useEffect, useRef } from 'react';
import { Dropdown, Input, makeStyles, Option, Radio, RadioGroup, Select } from '@fluentui/react-components';
import type { RJSFSchema, WidgetProps } from '@rjsf/utils';
import { useGetReference } from '../../../client/react/hooks.ts';
import { localizedName } from '../../../shared/locales.ts';
import { formContextOf, useSiblingValue } from '../context.ts';
import { translateTitle } from '../messages.ts';
import { useTranslator } from '../useTranslator.ts';

// A native select is as wide as its longest option unless told otherwise; long reference
// names (the committee's full name) would push it out of its grid column.
const useStyles = makeStyles({
  root: { width: '100%', minWidth: 0 },
  select: { width: '100%', minWidth: 0, textOverflow: 'ellipsis' },
});

/** The `reference` keyword of a field (or of its items, for a list of references). */
interface ReferenceSpec {
  list: string;
  parentField?: string;
}

/** One choice: the stored value, its key in the DOM and its label. */
export interface Choice {
  value: unknown;
  key: string;
  label: string;
}

const referenceOf = (schema: RJSFSchema): ReferenceSpec | undefined => {
  const own = (schema as { reference?: ReferenceSpec }).reference;
  const items =
    schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)
      ? (schema.items as { reference?: ReferenceSpec }).reference
      : undefined;
  return own ?? items;
};

const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === '';

/** The choices of a choice widget, whether the list is still loading, and whether a cascade waits for its parent. */
export function useChoices(props: WidgetProps): { choices: Choice[]; loading: boolean; waitingForParent: boolean } {
  const { schema, options, registry, value, onChange } = props;
  const i18n = useTranslator();
  const { locale } = formContextOf(registry);
  const reference = referenceOf(schema);
  const parentField = reference?.parentField;
  const parentValue = useSiblingValue(parentField);
  const waitingForParent = Boolean(parentField) && isEmpty(parentValue);
  const query = useGetReference(
    reference?.list,
    parentField ? (waitingForParent ? null : Number(parentValue)) : undefined,
    Boolean(reference),
  );

  // The sibling changed on its own (not together with this field, as a lookup fills both): clear.
  const previous = useRef({ parentValue, value });
  useEffect(() => {
    const before = previous.current;
    previous.current = { parentValue, value };
    if (
      parentField &&
      !Object.is(before.parentValue, parentValue) &&
      Object.is(before.value, value) &&
      !isEmpty(value)
    ) {
      onChange(undefined);
    }
  }, [parentField, parentValue, value, onChange]);

  if (reference) {
    // An item no longer offered (`active: false`, lists kept as an entity's records) is not
    // offered again, but a stored value keeps its name.
    const choices = (query.data ?? [])
      .filter(
        (item) =>
          (item as { active?: boolean }).active !== false ||
          Object.is(item.id, value) ||
          (Array.isArray(value) && value.includes(item.id)),
      )
      .map((item) => ({ value: item.id, key: String(item.id), label: localizedName(item, locale) }));
    return { choices, loading: query.isLoading, waitingForParent };
  }
  // `ui:options.choices` ([{value, labelKey}]): a closed list named by the view, for a field whose
  // schema leaves the values open (the roles a delegated screen may grant).
  const named = Array.isArray(options.choices)
    ? (options.choices as Array<{ value: unknown; labelKey: string }>)
    : undefined;
  const choices = named
    ? named.map((c) => ({ value: c.value, key: String(c.value), label: i18n.t(c.labelKey) }))
    : (options.enumOptions ?? []).map((o) => ({
        value: o.value,
        key: String(o.value),
        label: translateTitle(i18n, String(o.label)),
      }));
  return { choices, loading: false, waitingForParent: false };
}

const keyOf = (value: unknown): string => (isEmpty(value) ? '' : String(value));

/** The label(s) of the value, for read-only display. */
function labelsOf(value: unknown, choices: Choice[]): string {
  const values = Array.isArray(value) ? value : isEmpty(value) ? [] : [value];
  return values.map((v) => choices.find((c) => c.key === keyOf(v))?.label ?? String(v)).join(', ');
}

/** Read-only choices show their labels as text (detail pages). */
function ReadOnlyChoice({ id, value, choices }: { id: string; value: unknown; choices: Choice[] }) {
  return <Input id={id} readOnly value={labelsOf(value, choices)} />;
}

/** A drop-down list (`ui:options.multiple` or an array value: several choices). */
export function SelectWidget(props: WidgetProps) {
  const { id, htmlName, value, multiple, disabled, readonly, options, onChange, onBlur, onFocus } = props;
  const i18n = useTranslator();
  const { choices, loading, waitingForParent } = useChoices(props);
  const styles = useStyles();
  if (readonly) return <ReadOnlyChoice id={id} value={value} choices={choices} />;
  const placeholder = i18n.t(loading ? 'engine.form.loading' : 'engine.form.choose');

  if (multiple || options.multiple === true || Array.isArray(value)) {
    const selected = (Array.isArray(value) ? value : []).map(keyOf);
    return (
      <Dropdown
        id={id}
        multiselect
        disabled={disabled || waitingForParent}
        placeholder={placeholder}
        selectedOptions={selected}
        value={labelsOf(value, choices)}
        onOptionSelect={(_, data) =>
          onChange(
            data.selectedOptions.map((k) => choices.find((c) => c.key === k)?.value).filter((v) => v !== undefined),
          )
        }
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      >
        {choices.map((c) => (
          <Option key={c.key} value={c.key} text={c.label}>
            {c.label}
          </Option>
        ))}
      </Dropdown>
    );
  }

  const key = keyOf(value);
  const known = choices.some((c) => c.key === key);
  return (
    <Select
      className={styles.root}
      select={{ className: styles.select }}
      id={id}
      name={htmlName ?? id}
      value={key}
      disabled={disabled || waitingForParent}
      onChange={(_, data) =>
        onChange(data.value === '' ? options.emptyValue : choices.find((c) => c.key === data.value)?.value)
      }
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    >
      <option value="">{placeholder}</option>
      {/* A stored value whose list has not arrived yet stays selected. */}
      {key && !known && <option value={key}>{loading ? '…' : key}</option>}
      {choices.map((c) => (
        <option key={c.key} value={c.key}>
          {c.label}
        </option>
      ))}
    </Select>
  );
}

/** Radio buttons (`ui:options.inline`: in one row). */
export function RadioWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, options, onChange, onBlur, onFocus } = props;
  const { choices, waitingForParent } = useChoices(props);
  if (readonly) return <ReadOnlyChoice id={id} value={value} choices={choices} />;
  return (
    <RadioGroup
      id={id}
      value={keyOf(value)}
      layout={options.inline ? 'horizontal' : 'vertical'}
      disabled={disabled || waitingForParent}
      onChange={(_, data) => onChange(choices.find((c) => c.key === data.value)?.value)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    >
      {choices.map((c) => (
        <Radio key={c.key} value={c.key} label={c.label} />
      ))}
    </RadioGroup>
  );
}
