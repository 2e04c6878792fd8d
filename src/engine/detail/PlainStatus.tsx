import { Body1, Caption1, makeStyles, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { JSONSchema7 } from 'json-schema';
import type { MachineDefinition } from '../../generated/meta.ts';
import type { StoredRecord } from '../../client/data-provider.ts';
import type { HistoryEntry } from '../../shared/workflow.ts';
import { useGetTransitions } from '../../client/react/hooks.ts';
import { formatDate, formatDateTime } from '../../shared/format.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import { valueAt } from '../../shared/pointer.ts';
import { stateKey } from './TransitionBar.tsx';

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    margin: `${tokens.spacingVerticalS} 0`,
    borderLeft: `4px solid ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorNeutralBackground2,
    borderRadius: tokens.borderRadiusMedium,
  },
  sentence: { fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400 },
  steps: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The i18n key of a state's plain sentence for the applicant (required by `npm run check` where a screen asks for it). */
export const plainKey = (machine: string, state: string): string => `workflow.${machine}.plain.${state}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A top-level value as a sentence shows it: dates as DD.MM.YYYY, scalars as text, the rest left out. */
function shown(value: unknown, field: JSONSchema7 | undefined): string | undefined {
  if (value === null || value === undefined || isRecord(value) || Array.isArray(value)) return undefined;
  if (field?.format === 'date') return formatDate(value);
  if (field?.format === 'date-time') return formatDateTime(value);
  return String(value);
}

/**
 * What a plain sentence may interpolate: the record's top-level scalar fields (dates
 * formatted), `since` — the day the record entered its status (the last step, else its
 * creation) — and `deadline`, the due date its status keeps (else the last one it kept).
 */
export function plainValues(
  machine: MachineDefinition,
  record: StoredRecord,
  schema: JSONSchema7,
  history: HistoryEntry[],
): { values: Record<string, string>; deadline?: { field: string; value: string } } {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(record)) {
    const text = shown(value, resolveFieldSchema(schema, `/${name}`));
    if (text !== undefined) values[name] = text;
  }
  const entered = [...history].reverse().find((h) => h.to === record.status)?.at ?? record.createdAt;
  values.since = formatDate(entered);
  const fields = [
    machine.states[record.status]?.deadline?.field,
    ...Object.values(machine.states).map((s) => s.deadline?.field),
  ].filter((f): f is string => Boolean(f));
  const field = fields.find((f) => shown(valueAt(record, f), resolveFieldSchema(schema, f)));
  if (!field) return { values };
  const value = shown(valueAt(record, field), resolveFieldSchema(schema, field))!;
  values.deadline = value;
  return { values, deadline: { field, value } };
}

/** The pieces of a step's payload an applicant is told (titles from the machine's payload schema). */
function stepDetails(machine: MachineDefinition, step: HistoryEntry): Array<{ title: string; text: string }> {
  const on = machine.states[step.from]?.on?.[step.event];
  const transition = Array.isArray(on) ? on.find((t) => t.payload) : on;
  const properties = ((transition?.payload as JSONSchema7 | undefined)?.properties ?? {}) as Record<
    string,
    JSONSchema7
  >;
  return Object.entries(step.payload ?? {}).flatMap(([name, value]) => {
    const field = properties[name];
    const text = field ? shown(value, field) : undefined;
    return field && text && typeof field.title === 'string' ? [{ title: field.title, text }] : [];
  });
}

/**
 * The status as the applicant reads it: one plain sentence (`workflow.<machine>.plain.<STATE>`),
 * the deadline, and the dates of the steps so far — no staff names, no internal comments
 * (the server leaves them out of an outer user's history anyway).
 */
export function PlainStatusPanel({
  machine,
  record,
  schema,
  history,
}: {
  machine: MachineDefinition;
  record: StoredRecord;
  schema: JSONSchema7;
  history: HistoryEntry[];
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const { values, deadline } = plainValues(machine, record, schema, history);
  const deadlineTitle = deadline ? resolveFieldSchema(schema, deadline.field)?.title : undefined;
  return (
    <section
      className={s.panel}
      data-region="plain-status"
      data-status={record.status}
      aria-label={t('workflow.ui.plainTitle')}
    >
      <Subtitle2 as="h2">{t('workflow.ui.plainTitle')}</Subtitle2>
      <Body1 className={s.sentence} data-region="plain-sentence">
        {t(plainKey(machine.id, record.status), {
          ...values,
          defaultValue: t(stateKey(machine.id, record.status), { defaultValue: record.status }),
        })}
      </Body1>
      {deadline && (
        <Body1 data-region="plain-deadline">
          {deadlineTitle ? t(deadlineTitle) : t('workflow.ui.deadline')}: <strong>{deadline.value}</strong>
        </Body1>
      )}
      <Caption1 className={s.muted}>{t('workflow.ui.plainSteps')}</Caption1>
      <ol className={s.steps} data-region="plain-steps">
        <li data-step="created">
          <Body1 block>
            {formatDate(record.createdAt)} — {t('workflow.ui.plainFiled')}
          </Body1>
        </li>
        {history.map((step) => (
          <li key={step.id} data-step={step.event} data-to={step.to}>
            <Body1 block>
              {formatDate(step.at)} — {t(stateKey(machine.id, step.to), { defaultValue: step.to })}
            </Body1>
            {stepDetails(machine, step).map((d) => (
              <Caption1 key={d.title} block className={s.muted} data-detail={d.title}>
                {t(d.title)}: {d.text}
              </Caption1>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** {@link PlainStatusPanel} for a record page: loads the record's history (shared with the status-history tab). */
export function PlainStatus({
  entity,
  machine,
  record,
  schema,
}: {
  entity: string;
  machine: MachineDefinition;
  record: StoredRecord;
  schema: JSONSchema7;
}) {
  const history = useGetTransitions(entity, record.id, record.version);
  if (!history.data) return <Spinner size="tiny" />;
  return <PlainStatusPanel machine={machine} record={record} schema={schema} history={history.data} />;
}
