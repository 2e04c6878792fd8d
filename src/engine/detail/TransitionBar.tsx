import {
  Badge,
  Body1,
  Button,
  Caption1,
  Field,
  makeStyles,
  Spinner,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../client/react/context.tsx';
import { useEntity, useGetEvents, useGetTransitions, useTransition } from '../../client/react/hooks.ts';
import { queryKeys } from '../../client/query-keys.ts';
import { HttpError } from '../../client/http.ts';
import type { StoredRecord, WorkflowEvent } from '../../client/data-provider.ts';
import { formatDateTime } from '../../shared/format.ts';
import { useConfirm } from '../common/useConfirm.tsx';
import { useLockedAction } from '../common/useLockedAction.ts';
import type { EntityFormHandle } from '../form/EntityForm.tsx';
import { LazyEntityForm, useEntityFormReady } from '../form/LazyEntityForm.tsx';
import { FormLoading } from '../form/FormLoading.tsx';
import { FormDialog } from '../common/FormDialog.tsx';

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
    margin: `${tokens.spacingVerticalS} 0`,
  },
  timeline: { listStyle: 'none', margin: 0, padding: 0, borderLeft: `2px solid ${tokens.colorNeutralStroke1}` },
  step: { position: 'relative', padding: `0 0 ${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}` },
  dot: {
    position: 'absolute',
    left: '-7px',
    top: '4px',
    width: '12px',
    height: '12px',
    borderRadius: '50%',
    backgroundColor: tokens.colorBrandBackground,
  },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The i18n keys of a machine's states and events (checked by `npm run check`). */
export const stateKey = (machine: string, state: string): string => `workflow.${machine}.states.${state}`;
export const eventKey = (machine: string, event: string): string => `workflow.${machine}.events.${event}`;

const NO_UI = {};

/**
 * The status machine on a record page: the status as a badge and one button per event the
 * server allows this user now (`data-event`). An event without input asks for confirmation;
 * one with a payload schema opens its form first. The server decides everything: a refusal
 * (409, 403) is reported and the page reloads the record.
 */
export function TransitionBar({
  entity,
  machine,
  record,
  badge = true,
}: {
  entity: string;
  machine: string;
  record: StoredRecord;
  badge?: boolean;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const { reportError, notifySuccess } = useApi();
  const client = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const events = useGetEvents(entity, record);
  const definition = useEntity(entity);
  const transition = useTransition(entity);
  const [open, setOpen] = useState<WorkflowEvent | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string> | undefined>();
  // The payload typed so far: kept across re-renders (a 400's field errors), not reset to empty.
  const [payload, setPayload] = useState<Record<string, unknown>>({});
  const [comment, setComment] = useState('');
  const form = useRef<EntityFormHandle>(null);
  const formId = useId();
  // The payload's form loads when its dialog first opens: the dialog shows a spinner until then.
  // Its validator was generated at build time from the machine (the server sends the schema as written).
  const formReady = useEntityFormReady(entity, open?.payload, { machine });

  const send = async (event: WorkflowEvent, payload?: Record<string, unknown>) => {
    try {
      // The answer becomes the cached record (useTransition) before the dialog closes.
      await transition.mutateAsync({
        id: record.id,
        input: {
          event: event.type,
          version: record.version,
          ...(payload ? { payload } : {}),
          ...(comment.trim() ? { comment: comment.trim() } : {}),
        },
      });
      setOpen(null);
      setComment('');
      notifySuccess('workflow.ui.saved');
    } catch (error) {
      // Errors of the payload's fields show in its form; a refusal for the record's stored data
      // (no /payload pointer) names the field in its message, shown as a notice.
      const payloadErrors = Object.keys((error instanceof HttpError && error.fieldErrors) || {}).some((k) =>
        k.startsWith('/payload'),
      );
      if (error instanceof HttpError && error.status === 400 && error.fieldErrors && event.payload && payloadErrors) {
        setServerErrors(
          Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k.replace(/^\/payload/, ''), v])),
        );
        return;
      }
      setOpen(null);
      reportError(error);
    }
    await client.invalidateQueries({ queryKey: queryKeys.entity.all(entity) });
  };
  const { run, locked: busy } = useLockedAction(send);
  const eventLabel = (type: string) => t(eventKey(machine, type), { defaultValue: type });
  // An event without input is confirmed in a prompt naming the action and the status it leads to;
  // one with input, by its form's own "perform".
  const confirmAndRun = async (event: WorkflowEvent) => {
    const titleKey = definition.data?.manifest.titleKey;
    const action = eventLabel(event.type);
    const asked = await confirm({
      key: 'transition',
      title: t('forms.transition.title', { action }),
      message: t(event.target === record.status ? 'forms.transition.same' : 'forms.transition.message', {
        record: titleKey ? `${t(titleKey)} № ${record.id}` : `№ ${record.id}`,
        state: t(stateKey(machine, event.target), { defaultValue: event.target }),
        interpolation: { escapeValue: false },
      }),
      confirmLabel: action,
    });
    if (asked) await run(event);
  };

  const status = record.status;
  return (
    <div className={s.bar} data-region="transitions" data-machine={machine}>
      {badge && <Caption1>{t('workflow.ui.status')}:</Caption1>}
      {badge && (
        <Badge appearance="filled" data-status={status}>
          {t(stateKey(machine, status), { defaultValue: status })}
        </Badge>
      )}
      {events.isLoading && <Spinner size="tiny" />}
      {events.data?.map((event) => (
        <Button
          key={event.type}
          data-event={event.type}
          title={event.description}
          disabled={busy}
          onClick={() => {
            if (event.payload) {
              setServerErrors(undefined);
              setPayload({});
              setOpen(event);
            } else void confirmAndRun(event);
          }}
        >
          {eventLabel(event.type)}
        </Button>
      ))}
      {events.data?.problems && (
        <Caption1 className={s.muted} data-region="stored-problems" role="status">
          {t('workflow.ui.storedProblems', {
            fields: events.data.problems.map((p) => `${p.label} (${p.message})`).join('; '),
          })}
        </Caption1>
      )}
      {events.data && events.data.length === 0 && (
        <Caption1 className={s.muted} data-region="no-events">
          {t('workflow.ui.noActions')}
        </Caption1>
      )}
      {open && (
        <FormDialog
          title={eventLabel(open.type)}
          surface={{ 'data-dialog': 'transition', 'data-event': open.type }}
          onClose={() => setOpen(null)}
          formId={formId}
          busy={busy || !formReady}
          cancelLabel={t('workflow.ui.cancel')}
          sendLabel={t('workflow.ui.send')}
        >
          {!formReady && <FormLoading />}
          {formReady && open.payload && (
            <LazyEntityForm
              entity={entity}
              schema={open.payload}
              uiSchema={NO_UI}
              formData={payload}
              onChange={setPayload}
              serverErrors={serverErrors}
              formRef={form}
              id={formId}
              onSubmit={(data) => void run(open, data)}
            />
          )}
          {/* A visible label, not only a placeholder that goes away as one types; shown with the form, not before it. */}
          {formReady && (
            <Field label={`${t('workflow.ui.comment')} ${t('forms.optional')}`}>
              <Textarea data-field="/comment" value={comment} onChange={(_e, d) => setComment(d.value)} />
            </Field>
          )}
        </FormDialog>
      )}
      {dialog}
    </div>
  );
}

/** The path of the record through its statuses, oldest first, as a timeline. */
export function TransitionTimeline({ entity, machine, id }: { entity: string; machine: string; id: number }) {
  const s = useStyles();
  const { t } = useTranslation();
  const history = useGetTransitions(entity, id);
  if (history.isLoading) return <Spinner />;
  if (!history.data?.length) return <Body1>{t('workflow.ui.noHistory')}</Body1>;
  return (
    <ol className={s.timeline} data-region="transition-history">
      {history.data.map((row) => (
        <li key={row.id} className={s.step} data-transition={row.event} data-to={row.to}>
          <span className={s.dot} />
          <Body1>
            <strong>{t(eventKey(machine, row.event), { defaultValue: row.event })}</strong>
            {': '}
            {t(stateKey(machine, row.from), { defaultValue: row.from })} →{' '}
            {t(stateKey(machine, row.to), { defaultValue: row.to })}
          </Body1>
          <br />
          {/* An outer user's history names no staff (the server leaves actors out): just the date. */}
          <Caption1 className={s.muted}>
            {formatDateTime(row.at)}
            {(row.actorName ?? row.actor) ? ` · ${t('workflow.ui.by', { actor: row.actorName ?? row.actor })}` : ''}
          </Caption1>
          {row.comment && <Body1 as="p">{row.comment}</Body1>}
        </li>
      ))}
    </ol>
  );
}
