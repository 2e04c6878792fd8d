/**
 * Links to records of another entity. `entityRef` (the schema keyword `entityRef: {entity}`,
 * an integer id): a combobox that searches that entity by keyword as one types, showing each
 * record by its manifest's labelField; "#15" picks record 15 by its number. `entityChoices`
 * (an array of strings, `ui:options: {entity, valueField}`): several values chosen from the
 * `valueField` of that entity's records — a catalogue such as the roles of a user; each value
 * is named by its text where that field has `valueLabels` (a role's code → its name in the
 * user's language), and read-only the values show as chips; values not (or no longer) in the
 * catalogue stay and can be removed.
 */
import { useMemo, useState } from 'react';
import { Combobox, Input, makeStyles, Option, Tag, TagGroup, tokens } from '@fluentui/react-components';
import type { RJSFSchema, WidgetProps } from '@rjsf/utils';
import type { JSONSchema7 } from 'json-schema';
import { resolveFieldSchema } from '../../../shared/field-schema.ts';
import { valueLabel, valueLabelsOf } from '../../../shared/record-title.ts';
import { manifests } from '../../../definitions/client.ts';
import { valueAt } from '../../../shared/pointer.ts';
import { useEntity, useGetCatalogue, useGetOne, useSearchRecords } from '../../../client/react/hooks.ts';
import { SearchPicker } from './SearchPicker.tsx';
import { useTranslator } from '../useTranslator.ts';

const useStyles = makeStyles({
  root: { width: '100%', minWidth: 0 },
  tags: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, marginTop: tokens.spacingVerticalXS },
});

/** Options shown at once; typing narrows them. */
const SHOWN = 50;
/** Catalogue size read for `entityChoices` (pages of 100). */
const CATALOGUE_PAGES = 5;

const targetOf = (schema: RJSFSchema): string | undefined =>
  (schema as { entityRef?: { entity?: string } }).entityRef?.entity;

/** The label of a record of an entity: its labelField, else its id. */
function labelOf(entity: string, record: Record<string, unknown>): string {
  const field = manifests.get(entity)?.labelField;
  const value = field ? valueAt(record, field) : undefined;
  return value === undefined || value === null || value === '' ? `#${String(record.id)}` : String(value);
}

/** One record of another entity chosen by searching it (see the file comment). */
export function EntityRefWidget(props: WidgetProps) {
  const { id, schema, value, disabled, readonly, onChange, onBlur, onFocus } = props;
  const i18n = useTranslator();
  const entity = targetOf(schema) ?? String(props.options.entity ?? '');
  const [text, setText] = useState<string | undefined>(undefined);
  const current = typeof value === 'number' ? value : undefined;
  const chosen = useGetOne(entity, current, { enabled: Boolean(entity), staleTime: 60_000 });
  const chosenLabel = current === undefined ? '' : chosen.data ? labelOf(entity, chosen.data) : `#${current}`;
  const typed = (text ?? '').trim();
  // `#12` names a record by its number; anything else searches the keyword fields.
  const found = useSearchRecords(entity, typed, (record) => labelOf(entity, record), {
    enabled: text !== undefined && typed.length > 0 && Boolean(entity),
    limit: SHOWN,
  });

  if (readonly) return <Input id={id} readOnly value={chosenLabel} />;
  return (
    <SearchPicker
      id={id}
      disabled={disabled}
      placeholder={i18n.t('engine.form.searchRecord')}
      current={current}
      chosenLabel={chosenLabel}
      text={text}
      onText={setText}
      choices={found.data ?? []}
      fetching={found.isFetching}
      onPick={onChange}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

/** Several values from another entity's catalogue (see the file comment). */
export function EntityChoicesWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, options, onChange, onBlur, onFocus } = props;
  const i18n = useTranslator();
  const styles = useStyles();
  const entity = String(options.entity ?? '');
  const valueField = String(options.valueField ?? manifests.get(entity)?.labelField ?? '/id');
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState(false);
  const catalogue = useGetCatalogue(entity, valueField, {
    pages: CATALOGUE_PAGES,
    read: (r) => String(valueAt(r, valueField) ?? ''),
    // Read-only, the chosen values are all there is to show: no need (nor, maybe, the right) to read the catalogue.
    enabled: !(readonly || disabled),
  });
  const target = useEntity(entity);
  const labels = target.data
    ? valueLabelsOf(resolveFieldSchema(target.data.schema as JSONSchema7, valueField))
    : undefined;
  const labelOf = (v: string) => valueLabel(v, labels, i18n);
  const selected = Array.isArray(value) ? value.map(String) : [];
  const all = useMemo(() => [...new Set([...selected, ...(catalogue.data ?? [])])], [selected, catalogue.data]);
  if (readonly || disabled)
    return selected.length ? (
      <TagGroup id={id} className={styles.tags} size="small" data-chosen role="list">
        {selected.map((v) => (
          <Tag key={v} value={v} appearance="brand" role="listitem" data-value={v}>
            {labelOf(v)}
          </Tag>
        ))}
      </TagGroup>
    ) : (
      <Input id={id} readOnly value="" />
    );
  const needle = filter.trim().toLowerCase();
  const shown = all
    .filter((v) => !needle || v.toLowerCase().includes(needle) || labelOf(v).toLowerCase().includes(needle))
    .slice(0, SHOWN * 4);
  return (
    <div className={styles.root}>
      <Combobox
        id={id}
        className={styles.root}
        multiselect
        disabled={disabled}
        placeholder={i18n.t(catalogue.isLoading ? 'engine.form.loading' : 'engine.form.searchRecord')}
        value={filter}
        open={open}
        onOpenChange={(_, data) => setOpen(data.open)}
        selectedOptions={selected}
        onChange={(event) => {
          setFilter((event.target as HTMLInputElement).value);
          setOpen(true);
        }}
        onOptionSelect={(_, data) => onChange(data.selectedOptions)}
        onBlur={() => {
          setFilter('');
          onBlur(id, value);
        }}
        onFocus={() => onFocus(id, value)}
      >
        {shown.map((v) => (
          <Option key={v} value={v} text={labelOf(v)}>
            {labelOf(v)}
          </Option>
        ))}
      </Combobox>
      {/* The chosen values stay in sight, each removable. */}
      {selected.length > 0 && (
        <TagGroup
          className={styles.tags}
          size="small"
          data-chosen
          onDismiss={(_, data) => onChange(selected.filter((v) => v !== data.value))}
        >
          {selected.map((v) => (
            <Tag key={v} value={v} dismissible={!disabled} appearance="brand" data-value={v}>
              {labelOf(v)}
            </Tag>
          ))}
        </TagGroup>
      )}
    </div>
  );
}

/**
 * A number widget that becomes the record search for a field with `entityRef` — in a form
 * without a ui schema too (an event's payload form).
 * @example const NumberWidget = withEntityRef(PlainNumberWidget);
 */
export function withEntityRef(
  Widget: (props: WidgetProps) => React.ReactElement,
): (props: WidgetProps) => React.ReactElement {
  const RefOr = (props: WidgetProps) =>
    (props.schema as { entityRef?: unknown }).entityRef ? <EntityRefWidget {...props} /> : <Widget {...props} />;
  RefOr.displayName = `withEntityRef(${Widget.name})`;
  return RefOr;
}
