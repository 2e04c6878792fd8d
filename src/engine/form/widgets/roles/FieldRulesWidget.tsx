/**
 * A role's field rules (`ui:widget: "fieldRules"` on an array of `{subject, fields}`, the
 * fields JSON pointers such as /customer/phone): per record type, the fields picked by their
 * localized titles ("Applicant › Phone"); the pointers are what is stored. Read-only
 * (`readonly`/`disabled`, the record page): one line per record type, "Appeals: Applicant ›
 * Phone, Region" — titles, never pointers (a field the schema no longer has shows its pointer).
 */
import { useMemo, useState } from 'react';
import {
  Button,
  Combobox,
  FieldContextProvider,
  Option,
  Select,
  Tag,
  TagGroup,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import type { WidgetProps } from '@rjsf/utils';
import type { JSONSchema7 } from 'json-schema';
import { manifests } from '../../../../definitions/client.ts';
import { useEntity } from '../../../../client/react/hooks.ts';
import { deref } from '../../../../shared/field-schema.ts';
import { translateTitle, type Translator } from '../../messages.ts';
import { useTranslator } from '../../useTranslator.ts';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, width: '100%', minWidth: 0 },
  rule: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  head: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  subject: { flexGrow: 1, minWidth: 0, maxWidth: '420px' },
  picker: { width: '100%', minWidth: 0 },
  list: { margin: 0, paddingInlineStart: tokens.spacingHorizontalL },
  add: { alignSelf: 'flex-start' },
  tags: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
});

/** One stored rule. */
interface FieldRule {
  subject: string;
  fields: string[];
}

/** A field of a record schema: its pointer and its title path ("Applicant › Phone"). */
export interface FieldChoice {
  pointer: string;
  title: string;
}

const SEPARATOR = ' › ';

/**
 * The fields of a record schema, nested objects' fields too, by their title paths; lists'
 * items are not offered (a pointer names a field, not a row).
 */
export function fieldChoices(root: JSONSchema7, i18n: Translator): FieldChoice[] {
  const out: FieldChoice[] = [];
  const walk = (node: JSONSchema7 | undefined, pointer: string, path: string[]) => {
    for (const [name, child] of Object.entries(node?.properties ?? {})) {
      const field = deref(root, child);
      if (!field) continue;
      const title = [...path, translateTitle(i18n, field.title) || name];
      out.push({ pointer: `${pointer}/${name}`, title: title.join(SEPARATOR) });
      if (field.type === 'object') walk(field, `${pointer}/${name}`, title);
    }
  };
  walk(root, '', []);
  return out;
}

/** Record types by subject (the first entity of a subject names it). */
function useSubjects(i18n: Translator) {
  return useMemo(() => {
    const map = new Map<string, { entity: string; label: string }>();
    for (const m of manifests.values())
      if (m.subject && !map.has(m.subject)) map.set(m.subject, { entity: m.id, label: i18n.t(m.titleKey) });
    return [...map].sort(([, a], [, b]) => a.label.localeCompare(b.label));
  }, [i18n]);
}

/** The title of a pointer among the choices, else the pointer itself. */
const titleOf = (choices: FieldChoice[], pointer: string) =>
  choices.find((c) => c.pointer === pointer)?.title ?? pointer;

/** One rule: its record type and its fields (see the file comment). */
function Rule(props: {
  rule: FieldRule;
  index: number;
  reading: boolean;
  subjects: ReturnType<typeof useSubjects>;
  i18n: Translator;
  onChange: (rule: FieldRule | undefined) => void;
}) {
  const { rule, index, reading, subjects, i18n, onChange } = props;
  const s = useStyles();
  const [filter, setFilter] = useState('');
  const target = subjects.find(([subject]) => subject === rule.subject)?.[1];
  const definition = useEntity(target?.entity);
  const choices = useMemo(
    () => (definition.data ? fieldChoices(definition.data.schema as JSONSchema7, i18n) : []),
    [definition.data, i18n],
  );
  const label = target?.label ?? rule.subject;
  // Until the record type's schema is there, its fields are not shown at all: never as pointers.
  const waiting = Boolean(target) && !definition.data && !definition.error;
  if (reading)
    return (
      <li data-rule={rule.subject} data-state={waiting ? 'loading' : undefined}>
        <strong>{label}:</strong> {waiting ? '…' : rule.fields.map((p) => titleOf(choices, p)).join(', ')}
      </li>
    );
  const needle = filter.trim().toLocaleLowerCase();
  const shown = choices.filter((c) => !needle || c.title.toLocaleLowerCase().includes(needle));
  return (
    <div className={s.rule} data-rule={rule.subject || index}>
      <div className={s.head}>
        <Select
          className={s.subject}
          aria-label={i18n.t('roles.fieldRules.subject')}
          value={rule.subject}
          onChange={(_, d) => onChange({ subject: d.value, fields: [] })}
        >
          <option value="">{i18n.t('roles.fieldRules.pickSubject')}</option>
          {subjects.map(([subject, t]) => (
            <option key={subject} value={subject}>
              {t.label}
            </option>
          ))}
        </Select>
        <Button icon={<DeleteRegular />} appearance="subtle" onClick={() => onChange(undefined)}>
          {i18n.t('roles.fieldRules.remove')}
        </Button>
      </div>
      <Combobox
        className={s.picker}
        multiselect
        disabled={!rule.subject}
        aria-label={`${label}: ${i18n.t('roles.fieldRules.fields')}`}
        placeholder={i18n.t('roles.fieldRules.pickFields')}
        value={filter}
        selectedOptions={rule.fields}
        onChange={(e) => setFilter((e.target as HTMLInputElement).value)}
        onOptionSelect={(_, d) => onChange({ ...rule, fields: d.selectedOptions })}
        onBlur={() => setFilter('')}
        data-fields-picker={rule.subject}
      >
        {shown.map((c) => (
          <Option key={c.pointer} value={c.pointer} text={c.title}>
            {c.title}
          </Option>
        ))}
      </Combobox>
      {rule.fields.length > 0 && (
        <TagGroup
          className={s.tags}
          size="small"
          data-chosen
          onDismiss={(_, d) => onChange({ ...rule, fields: rule.fields.filter((p) => p !== d.value) })}
        >
          {rule.fields.map((p) => (
            <Tag key={p} value={p} dismissible appearance="brand">
              {titleOf(choices, p)}
            </Tag>
          ))}
        </TagGroup>
      )}
    </div>
  );
}

/** The field-rules picker (see the file comment). */
export function FieldRulesWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, onFocus } = props;
  const s = useStyles();
  const i18n = useTranslator();
  const subjects = useSubjects(i18n);
  const rules: FieldRule[] = Array.isArray(value) ? (value as FieldRule[]) : [];
  const reading = Boolean(readonly || disabled);
  const put = (index: number, rule: FieldRule | undefined) =>
    onChange(rule ? rules.map((r, i) => (i === index ? rule : r)) : rules.filter((_, i) => i !== index));
  const items = rules.map((rule, i) => (
    <Rule
      key={`${i}-${rule.subject}`}
      rule={rule}
      index={i}
      reading={reading}
      subjects={subjects}
      i18n={i18n}
      onChange={(r) => put(i, r)}
    />
  ));
  return (
    <div
      id={id}
      className={s.root}
      data-field-rules={reading ? 'read' : 'edit'}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    >
      <FieldContextProvider value={undefined}>
        {reading ? (
          rules.length ? (
            <ul className={s.list}>{items}</ul>
          ) : (
            <span>{i18n.t('roles.fieldRules.none')}</span>
          )
        ) : (
          <>
            {items}
            <Button
              className={s.add}
              icon={<AddRegular />}
              onClick={() => onChange([...rules, { subject: '', fields: [] }])}
              data-action="add-rule"
            >
              {i18n.t('roles.fieldRules.add')}
            </Button>
          </>
        )}
      </FieldContextProvider>
    </div>
  );
}
