/**
 * The control side of the filter-kind registry (`src/shared/filter-kinds.ts`): one entry per
 * kind, typed by the kind names so a kind without a control does not compile. A debounced
 * keyword box, a select of statuses, selects of reference lists (a child list such as
 * district follows its parent filter), enum selects, two DD.MM.YYYY boxes for a date range, two
 * numbers for a range and a checkbox for a boolean. Values are the query strings list-search
 * takes, under the names the kind's `params` gives.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, Dropdown, Input, Option, Select, makeStyles, tokens } from '@fluentui/react-components';
import type { JSONSchema7 } from 'json-schema';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { useGetReference } from '../../client/react/hooks.ts';
import { localizedName, pickLocale } from '../../shared/locales.ts';
import { DateFilterInput } from './DateFilterInput.tsx';
import { enumOptions, statesKeyOf, statusLabel, type Translate } from '../../shared/format.ts';
import type { FilterKind, GridFilter } from '../../shared/filter-kinds.ts';

/** How long typing pauses before a text filter applies. */
export const FILTER_DEBOUNCE_MS = 400;

/** Filter values by query name. */
export type FilterValues = Record<string, string>;

/** What every filter control is given. */
export interface FilterControlProps {
  filter: GridFilter;
  def: EntityDefinition;
  /** Status names offered by a filter on /status. */
  statuses: readonly string[];
  values: FilterValues;
  /** Sets some filter values ('' clears one). */
  onChange(patch: FilterValues): void;
  /** The filter's translated title. */
  label: string;
  translate: Translate;
}

/** One kind's control. */
export interface FilterControlEntry {
  Control(props: FilterControlProps): ReactNode;
  /** The control shows its own label (a checkbox), so it is not wrapped in a labelled field. */
  labelsItself?: boolean;
}

export const useFilterStyles = makeStyles({
  bar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-end' },
  stacked: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  control: { minWidth: '160px', maxWidth: '100%' },
  // A native select is as wide as its longest option (the committee's full name); cap it.
  select: { width: '13rem', maxWidth: '100%' },
  pair: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'flex-start', lineHeight: '32px' },
  half: { minWidth: '0', width: '150px' },
  error: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200, maxWidth: '22rem' },
});

interface Choice {
  value: string;
  label: string;
}

/** A text input whose value is applied after typing pauses. */
function DebouncedInput({
  value,
  onCommit,
  type = 'text',
  label,
  className,
}: {
  value: string;
  onCommit(v: string): void;
  type?: 'text' | 'number' | 'search';
  label: string;
  className?: string;
}) {
  const [text, setText] = useState(value);
  const commit = useRef(onCommit);
  commit.current = onCommit;
  // A value changed from outside (back/forward, "clear") replaces what is typed.
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return undefined;
    const timer = setTimeout(() => commit.current(text.trim()), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <Input className={className} type={type} value={text} aria-label={label} onChange={(_, d) => setText(d.value)} />
  );
}

function SingleSelect({
  choices,
  value,
  onChange,
  label,
  disabled,
}: {
  choices: Choice[];
  value: string;
  onChange(v: string): void;
  label: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const styles = useFilterStyles();
  return (
    <Select
      className={styles.select}
      value={value}
      aria-label={label}
      disabled={disabled}
      onChange={(_, d) => onChange(d.value)}
    >
      <option value="">{t('engine.list.all')}</option>
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </Select>
  );
}

function MultiSelect({
  choices,
  value,
  onChange,
  label,
  disabled,
}: {
  choices: Choice[];
  value: string;
  onChange(v: string): void;
  label: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const selected = value ? value.split(',') : [];
  const shown = choices
    .filter((c) => selected.includes(c.value))
    .map((c) => c.label)
    .join(', ');
  return (
    <Dropdown
      multiselect
      // Inline, so it also works inside the small-screen filter panel (a modal drawer).
      inlinePopup
      aria-label={label}
      disabled={disabled}
      placeholder={t('engine.list.all')}
      value={shown}
      selectedOptions={selected}
      onOptionSelect={(_, d) => onChange(d.selectedOptions.join(','))}
    >
      {choices.map((c) => (
        <Option key={c.value} value={c.value}>
          {c.label}
        </Option>
      ))}
    </Dropdown>
  );
}

/** A select over a reference list, narrowed by the parent filter's value when it has one. */
function ReferenceFilter({
  filter,
  values,
  onChange,
  label,
  multi,
}: {
  filter: GridFilter;
  values: FilterValues;
  onChange(patch: FilterValues): void;
  label: string;
  multi: boolean;
}) {
  const { i18n } = useTranslation();
  const locale = pickLocale(i18n.language);
  const parentValue = filter.parentFilter ? values[filter.parentFilter] : undefined;
  const parent = filter.parentFilter ? (parentValue ? Number(parentValue.split(',')[0]) : null) : undefined;
  const { data } = useGetReference(filter.reference, parent);
  const choices = (data ?? []).map((item) => ({ value: String(item.id), label: localizedName(item, locale) }));
  const value = values[filter.name] ?? '';
  const disabled = parent === null;
  const set = (v: string) => onChange({ [filter.name]: v });
  return multi ? (
    <MultiSelect choices={choices} value={value} onChange={set} label={label} disabled={disabled} />
  ) : (
    <SingleSelect choices={choices} value={value} onChange={set} label={label} disabled={disabled} />
  );
}

/**
 * eq (one choice) and in (several): a reference list, the statuses, the field's enum, or
 * else a typed input.
 */
const choiceControl = (multi: boolean): FilterControlEntry['Control'] =>
  function ChoiceControl({ filter, def, statuses, values, onChange, label, translate }) {
    const styles = useFilterStyles();
    const value = values[filter.name] ?? '';
    const set = (v: string) => onChange({ [filter.name]: v });
    if (filter.reference)
      return <ReferenceFilter filter={filter} values={values} onChange={onChange} label={label} multi={multi} />;
    const field: JSONSchema7 | undefined = filter.field ? resolveFieldSchema(def.schema, filter.field) : undefined;
    const options =
      filter.field === '/status'
        ? statuses.map((s) => ({ value: s, label: statusLabel(s, translate, statesKeyOf(def.manifest)) }))
        : enumOptions(field)?.map((o) => ({
            value: String(o.value),
            label: (o.titleKey && translate(o.titleKey)) || String(o.value),
          }));
    if (options) {
      return multi ? (
        <MultiSelect choices={options} value={value} onChange={set} label={label} />
      ) : (
        <SingleSelect choices={options} value={value} onChange={set} label={label} />
      );
    }
    const numeric = field && ['integer', 'number'].includes(scalarType(field) ?? '');
    return (
      <DebouncedInput
        className={styles.control}
        type={numeric ? 'number' : 'text'}
        value={value}
        onCommit={set}
        label={label}
      />
    );
  };

/** Whether `from` lies after `to` (days compare as text, numbers as numbers). */
export function reversedBounds(from: string | undefined, to: string | undefined, input: 'date' | 'number'): boolean {
  if (!from || !to) return false;
  return input === 'date' ? from > to : Number(from) > Number(to);
}

/**
 * dateRange (two DD.MM.YYYY boxes, applied at once) and range (two numbers, debounced):
 * `<name>From`–`<name>To`. A reversed pair is not sent (it would only give an empty list):
 * it stays in the boxes with a message saying what is wrong.
 */
const boundsControl = (input: 'date' | 'number'): FilterControlEntry['Control'] =>
  function BoundsControl({ filter, values, onChange, label }) {
    const styles = useFilterStyles();
    const { t } = useTranslation();
    const from = `${filter.name}From`;
    const to = `${filter.name}To`;
    // A side typed but held back because the pair would be reversed.
    const [held, setHeld] = useState<FilterValues>({});
    useEffect(() => setHeld({}), [values[from], values[to]]);
    const shown = { [from]: values[from] ?? '', [to]: values[to] ?? '', ...held };
    const reversed = reversedBounds(shown[from], shown[to], input);
    const set = (name: string, v: string) => {
      const next = { ...shown, [name]: v };
      if (reversedBounds(next[from], next[to], input)) setHeld({ [name]: v });
      else {
        setHeld({});
        onChange({ [from]: next[from] ?? '', [to]: next[to] ?? '' });
      }
    };
    const bound = (name: string, side: string) =>
      input === 'date' ? (
        <DateFilterInput
          label={`${label}: ${side}`}
          value={shown[name] ?? ''}
          invalid={reversed}
          onCommit={(v) => set(name, v)}
        />
      ) : (
        <DebouncedInput
          className={styles.half}
          type="number"
          label={`${label}: ${side}`}
          value={shown[name] ?? ''}
          onCommit={(v) => set(name, v)}
        />
      );
    return (
      <div>
        <div className={styles.pair}>
          {bound(from, t('engine.list.from'))}–{bound(to, t('engine.list.to'))}
        </div>
        {reversed && (
          <div role="alert" className={styles.error} data-state="reversed">
            {t(input === 'date' ? 'list.reversedDates' : 'list.reversedRange')}
          </div>
        )}
      </div>
    );
  };

/** A checkbox: `<name>=true` when ticked, nothing otherwise. */
function boolControl({ filter, values, onChange, label }: Parameters<FilterControlEntry['Control']>[0]) {
  return (
    <Checkbox
      checked={(values[filter.name] ?? '') === 'true'}
      aria-label={label}
      label={label}
      onChange={(_, d) => onChange({ [filter.name]: d.checked === true ? 'true' : '' })}
    />
  );
}

/**
 * Every kind's control, one entry each.
 * @example const { Control } = FILTER_CONTROLS[filter.kind]; <Control filter={filter} … />
 */
export const FILTER_CONTROLS: { readonly [K in FilterKind]: FilterControlEntry } = {
  // A checkbox "only mine" (`<name>=true`), like bool's.
  currentUser: { Control: boolControl, labelsItself: true },
  // A checkbox "without <field>" (`<name>=true`).
  empty: { Control: boolControl, labelsItself: true },
  keyword: {
    Control: function KeywordControl({ filter, values, onChange, label }) {
      const styles = useFilterStyles();
      return (
        <DebouncedInput
          className={styles.control}
          type="search"
          value={values[filter.name] ?? ''}
          onCommit={(v) => onChange({ [filter.name]: v })}
          label={label}
        />
      );
    },
  },
  eq: { Control: choiceControl(false) },
  in: { Control: choiceControl(true) },
  dateRange: { Control: boundsControl('date') },
  range: { Control: boundsControl('number') },
  bool: { Control: boolControl, labelsItself: true },
  // The same checkbox: "only my department"; the server knows which department that is.
  myUnit: { Control: boolControl, labelsItself: true },
};
