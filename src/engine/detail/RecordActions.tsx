import { Button } from '@fluentui/react-components';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JSONSchema7 } from 'json-schema';
import type { RecordAction } from '../../generated/meta.ts';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider } from '../../client/react/hooks.ts';
import { HttpError } from '../../client/http.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { canOpen } from '../../shared/ability.ts';
import { valueAt } from '../../shared/pointer.ts';
import { requestOf, type FlowContext } from '../flow/flow.ts';
import { useLockedAction } from '../common/useLockedAction.ts';
import type { EntityFormHandle } from '../form/EntityForm.tsx';
import { LazyEntityForm, useEntityFormReady } from '../form/LazyEntityForm.tsx';
import { FormLoading } from '../form/FormLoading.tsx';
import { FormDialog } from '../common/FormDialog.tsx';

/**
 * The screen's `recordActions` a user may use on this record: a button each, opening the
 * action's form in a dialog; its values and the record's fields named in `fromRecord` are sent
 * to the action's endpoint (the server checks the permission again). The form's widgets may
 * read the record (a new password's meter: the user's username and e-mail). A 400's field
 * errors land on the form's fields; anything else is reported as usual and closes the dialog.
 * @example <RecordActions entity={screen.entity} screen={screen.id} actions={screen.options.recordActions} record={data} />
 */
export function RecordActions({
  entity,
  screen,
  actions,
  record,
}: {
  entity: string;
  /** The id of the screen whose `recordActions` these are (their forms' validators were generated with it). */
  screen?: string;
  actions: readonly RecordAction[];
  record: Record<string, unknown>;
}) {
  const { t } = useTranslation();
  const ability = useAbility();
  const dp = useDataProvider();
  const { reportError, notifySuccess } = useApi();
  const [open, setOpen] = useState<RecordAction | null>(null);
  // The dialog's values live here, so a re-render (a 400's errors) keeps what was typed.
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string> | undefined>();
  const form = useRef<EntityFormHandle>(null);
  const formId = useId();
  const allowed = actions.filter((a) => canOpen(ability, a.permission));
  // The action's form loads when its dialog first opens: the dialog shows a spinner until then.
  const formReady = useEntityFormReady(entity, open?.schema, { id: screen });

  const { run, locked } = useLockedAction(async (action: RecordAction, values: Record<string, unknown>) => {
    const context: FlowContext = { ...values };
    for (const [name, pointer] of Object.entries(action.fromRecord ?? {})) context[name] = valueAt(record, pointer);
    const request = requestOf(action.endpoint, context);
    try {
      await dp.callEndpoint(request);
      setOpen(null);
      notifySuccess(action.doneKey ?? 'engine.saved.updated');
    } catch (error) {
      if (error instanceof HttpError && error.status === 400 && error.fieldErrors) {
        setServerErrors(error.fieldErrors);
        return;
      }
      setOpen(null);
      reportError(error);
    }
  });

  if (allowed.length === 0) return null;
  return (
    <>
      {allowed.map((action) => (
        <Button
          key={action.id}
          data-action={action.id}
          onClick={() => {
            setServerErrors(undefined);
            setValues({});
            setOpen(action);
          }}
        >
          {t(action.titleKey)}
        </Button>
      ))}
      {open && (
        <FormDialog
          title={t(open.titleKey)}
          surface={{ 'data-dialog': 'record-action', 'data-action-id': open.id }}
          onClose={() => setOpen(null)}
          formId={formId}
          busy={locked || !formReady}
          cancelLabel={t('engine.form.cancel')}
          sendLabel={t('engine.form.save')}
        >
          {!formReady && <FormLoading />}
          {formReady && (
            <LazyEntityForm
              entity={entity}
              schema={open.schema as JSONSchema7}
              uiSchema={open.uiSchema ?? {}}
              formData={values}
              onChange={setValues}
              serverErrors={serverErrors}
              outside={record}
              formRef={form}
              id={formId}
              onSubmit={(data) => void run(open, data)}
            />
          )}
        </FormDialog>
      )}
    </>
  );
}
