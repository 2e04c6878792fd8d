/**
 * The filter controls of a list, one per `grid.json` filter: a debounced keyword box, a
 * select of statuses, selects of reference lists (a child list such as district follows
 * its parent filter), enum selects, two date inputs for a date range, two numbers for a
 * range and a checkbox for a boolean. Values are the query strings list-search takes.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, Dropdown, Field, Input, Option, Select, makeStyles, tokens } from '@fluentui/react-components';
import type { JSONSchema7 } from 'json-schema';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { useGetReference } from '../../client/react/hooks.ts';
import { localizedName, pickLocale } from '../../shared/locales.ts';
import { enumOptions, statusLabel, type Translate } from '../../shared/format.ts';

/** How long typing pauses before a text filter applies. */
export const FILTER_DEBOUNCE_MS = 400;

type Filter = EntityDefinition['grid']['filters'][number];
type Values = Record<string, string>;

export interface ListFiltersProps {
  def: EntityDefinition;
  /** Status names offered by a filter on /status. */
  statuses: readonly string[];
  values: Values;
  /** Sets some filter values ('' clears one). */
  onChange(patch: Values): void;
  /** Lay the controls out in one column (the small-screen panel). */
  stacked?: boolean;
}

const useStyles = makeStyles({
  bar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-end' },
  stacked: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  control: { minWidth: '180px', maxWidth: '100%' },
  // A native select is as wide as its longest option (the committee's full name); cap it.
  select: { width: '16rem', maxWidth: '100%' },
  pair: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
  half: { minWidth: '0', width: '150px' },
});

interface Choice {
  value: string;
  label: string;
}

/** A text input whose value is applied after typing pauses. */
function DebouncedInput({ value, onCommit, type = 'text', label, className }: { value: string; onCommit(v: string): void; type?: 'text' | 'number' | 'search'; label: string; className?: string }) {
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
  return <Input className={className} type={type} value={text} aria-label={label} onChange={(_, d) => setText(d.value)} />;
}

function SingleSelect({ choices, value, onChange, label, disabled }: { choices: Choice[]; value: string; onChange(v: string): void; label: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <Select className={styles.select} value={value} aria-label={label} disabled={disabled} onChange={(_, d) => onChange(d.value)}>
      <option value="">{t('engine.list.all')}</option>
      {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
    </Select>
  );
}

function MultiSelect({ choices, value, onChange, label, disabled }: { choices: Choice[]; value: string; onChange(v: string): void; label: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const selected = value ? value.split(',') : [];
  const shown = choices.filter((c) => selected.includes(c.value)).map((c) => c.label).join(', ');
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
      {choices.map((c) => <Option key={c.value} value={c.value}>{c.label}</Option>)}
    </Dropdown>
  );
}

/** A select over a reference list, narrowed by the parent filter's value when it has one. */
function ReferenceFilter({ filter, values, onChange, label }: { filter: Filter; values: Values; onChange(patch: Values): void; label: string }) {
  const { i18n } = useTranslation();
  const locale = pickLocale(i18n.language);
  const parentValue = filter.parentFilter ? values[filter.parentFilter] : undefined;
  const parent = filter.parentFilter ? (parentValue ? Number(parentValue.split(',')[0]) : null) : undefined;
  const { data } = useGetReference(filter.reference, parent);
  const choices = (data ?? []).map((item) => ({ value: String(item.id), label: localizedName(item, locale) }));
  const value = values[filter.name] ?? '';
  const disabled = parent === null;
  const set = (v: string) => onChange({ [filter.name]: v });
  return filter.kind === 'in'
    ? <MultiSelect choices={choices} value={value} onChange={set} label={label} disabled={disabled} />
    : <SingleSelect choices={choices} value={value} onChange={set} label={label} disabled={disabled} />;
}

/** The control of one filter. */
function FilterControl({ filter, def, statuses, values, onChange, label, translate }: { filter: Filter; def: EntityDefinition; statuses: readonly string[]; values: Values; onChange(patch: Values): void; label: string; translate: Translate }) {
  const styles = useStyles();
  const { t } = useTranslation();
  const value = values[filter.name] ?? '';
  const set = (v: string) => onChange({ [filter.name]: v });
  const field: JSONSchema7 | undefined = filter.field ? resolveFieldSchema(def.schema, filter.field) : undefined;
  switch (filter.kind) {
    case 'keyword':
      return <DebouncedInput className={styles.control} type="search" value={value} onCommit={set} label={label} />;
    case 'bool':
      return <Checkbox checked={value === 'true'} aria-label={label} label={label} onChange={(_, d) => set(d.checked === true ? 'true' : '')} />;
    case 'dateRange':
    case 'range': {
      const from = `${filter.name}From`;
      const to = `${filter.name}To`;
      const input = (name: string, bound: string) => filter.kind === 'dateRange'
        ? <Input className={styles.half} type="date" aria-label={`${label}: ${bound}`} value={values[name] ?? ''} onChange={(_, d) => onChange({ [name]: d.value })} />
        : <DebouncedInput className={styles.half} type="number" label={`${label}: ${bound}`} value={values[name] ?? ''} onCommit={(v) => onChange({ [name]: v })} />;
      return <div className={styles.pair}>{input(from, t('engine.list.from'))}–{input(to, t('engine.list.to'))}</div>;
    }
    case 'eq':
    case 'in': {
      if (filter.reference) return <ReferenceFilter filter={filter} values={values} onChange={onChange} label={label} />;
      const options = filter.field === '/status'
        ? statuses.map((s) => ({ value: s, label: statusLabel(s, translate) }))
        : enumOptions(field)?.map((o) => ({ value: String(o.value), label: (o.titleKey && translate(o.titleKey)) || String(o.value) }));
      if (options) {
        return filter.kind === 'in'
          ? <MultiSelect choices={options} value={value} onChange={set} label={label} />
          : <SingleSelect choices={options} value={value} onChange={set} label={label} />;
      }
      const numeric = field && ['integer', 'number'].includes(scalarType(field) ?? '');
      return <DebouncedInput className={styles.control} type={numeric ? 'number' : 'text'} value={value} onCommit={set} label={label} />;
    }
  }
}

/** Every filter of the grid, labelled. */
export default function ListFilters({ def, statuses, values, onChange, stacked }: ListFiltersProps) {
  const styles = useStyles();
  const { t, i18n } = useTranslation();
  const translate: Translate = (key) => (i18n.exists(key) ? t(key) : undefined);
  const labelOf = (f: Filter): string => (f.titleKey ? t(f.titleKey) : f.name);
  const wrap = (f: Filter, control: ReactNode) => (
    <div key={f.name} data-filter={f.name} className={styles.control}>
      {f.kind === 'bool' ? control : <Field label={labelOf(f)}>{control}</Field>}
    </div>
  );
  return (
    <div className={stacked ? styles.stacked : styles.bar} role="search">
      {def.grid.filters.map((f) => wrap(f, <FilterControl filter={f} def={def} statuses={statuses} values={values} onChange={onChange} label={labelOf(f)} translate={translate} />))}
    </div>
  );
}
