import { Body1, Button, makeStyles, Title2, tokens } from '@fluentui/react-components';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { JSONSchema7 } from 'json-schema';
import type { FlowEndpoint, FlowStep } from '../../generated/meta.ts';
import type { ScreenProps } from '../types.ts';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider } from '../../client/react/hooks.ts';
import { HttpError } from '../../client/http.ts';
import { saveSession, type SignInReply } from '../../client/session.ts';
import { useLockedAction } from '../common/useLockedAction.ts';
import { EntityForm, type EntityFormHandle } from '../form/EntityForm.tsx';
import { StepIndicator } from '../wizard/StepIndicator.tsx';
import { nextStepIndex, previousStepIndex, requestOf, stepApplies, stepValues, type FlowContext } from './flow.ts';

const useStyles = makeStyles({
  root: { maxWidth: '760px', margin: '24px auto', display: 'grid', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
  right: { display: 'flex', gap: tokens.spacingHorizontalS, marginLeft: 'auto' },
  hint: { color: tokens.colorNeutralForeground3 },
});

/** How long typing rests before a live check asks the server. */
const CHECK_DELAY_MS = 400;

/** Only paths of this portal may be gone to at the end (no open redirect). */
const safePath = (value: string | undefined): string =>
  value && value.startsWith('/') && !value.startsWith('//') ? value : '/';

/**
 * A step-by-step flow over API calls, from the screen's `options.steps` (registration,
 * password reset…): each step is its own form; submitting it calls the step's endpoint with
 * the flow's context (the values of all steps so far and the reply fields kept), a 400's field
 * errors land on the fields, and the next applicable step follows. The last reply may be a
 * sign-in session, stored before the flow leaves for `finish.redirect`.
 */
export default function FlowScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dataProvider = useDataProvider();
  const { reportError, notifySuccess } = useApi();
  const steps = useMemo(() => screen.options?.steps ?? [], [screen.options?.steps]);
  const finish = screen.options?.finish;
  const form = useRef<EntityFormHandle>(null);
  const [context, setContext] = useState<FlowContext>({});
  const [index, setIndex] = useState(() =>
    Math.max(
      0,
      steps.findIndex((st) => stepApplies(st, {})),
    ),
  );
  const step: FlowStep | undefined = steps[index];
  const [data, setData] = useState<Record<string, unknown>>(() => (step ? stepValues(step, {}) : {}));
  const [submitErrors, setSubmitErrors] = useState<Record<string, string> | undefined>(undefined);
  const [checkErrors, setCheckErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string | undefined>(undefined);

  // A step's endpoint is the definition's, filled in from the flow's context.
  const call = <T,>(endpoint: FlowEndpoint, values: FlowContext): Promise<T> =>
    dataProvider.callEndpoint<T>(requestOf(endpoint, values));

  const goTo = (next: number, values: FlowContext) => {
    setIndex(next);
    setData(stepValues(steps[next]!, values));
    setSubmitErrors(undefined);
    setCheckErrors({});
    window.scrollTo?.({ top: 0 });
  };

  // Live checks: a field's value, once typing rests, is asked about; a stale answer is dropped.
  const checked = useRef<Record<string, unknown>>({});
  useEffect(() => {
    const timers = (step?.checks ?? []).map((check) => {
      const value = data[check.field];
      if (value === checked.current[check.field]) return undefined;
      return setTimeout(() => {
        checked.current[check.field] = value;
        const pointer = `/${check.field}`;
        if (value === undefined || value === '') {
          setCheckErrors(({ [pointer]: _gone, ...rest }) => rest);
          return;
        }
        call<{ available?: boolean; message?: string }>(check.endpoint, { ...context, ...data })
          .then((reply) => {
            if (checked.current[check.field] !== value) return;
            setCheckErrors(({ [pointer]: _old, ...rest }) =>
              reply.available === false
                ? { ...rest, [pointer]: reply.message ?? t('validation.unique', { field: '' }) }
                : rest,
            );
          })
          // A failed check is not an error of the form: the submit asks the server again anyway.
          .catch(() => undefined);
      }, CHECK_DELAY_MS);
    });
    return () => timers.forEach((timer) => timer && clearTimeout(timer));
  }, [data, step]); // eslint-disable-line react-hooks/exhaustive-deps

  const serverErrors = useMemo(
    () => (submitErrors || Object.keys(checkErrors).length ? { ...checkErrors, ...submitErrors } : undefined),
    [submitErrors, checkErrors],
  );

  const fail = (error: unknown) => {
    if (error instanceof HttpError && error.fieldErrors) setSubmitErrors(error.fieldErrors);
    reportError(error);
  };

  const submit = useLockedAction(async (values: Record<string, unknown>) => {
    if (!step) return;
    const merged = { ...context, ...values };
    let reply: Record<string, unknown> = {};
    if (step.endpoint) {
      try {
        reply = (await call<Record<string, unknown> | null>(step.endpoint, merged)) ?? {};
      } catch (error) {
        fail(error);
        return;
      }
    }
    const kept = {
      ...merged,
      ...Object.fromEntries((step.keep ?? []).filter((k) => k in reply).map((k) => [k, reply[k]])),
    };
    setContext(kept);
    // What the step did ("the code has been sent") shows on the next step only.
    setStatus(step.doneKey);
    const next = nextStepIndex(steps, index, kept);
    if (next >= 0) {
      goTo(next, kept);
      return;
    }
    if (finish?.session) {
      saveSession(reply as unknown as SignInReply);
      if (finish.doneKey) notifySuccess(finish.doneKey);
      // A full load: the menu and the permissions are rebuilt from the new session.
      window.location.assign(safePath(finish.redirect));
      return;
    }
    if (finish?.doneKey) notifySuccess(finish.doneKey);
    navigate(safePath(finish?.redirect));
  }, 0);

  const runAction = useLockedAction(async (action: NonNullable<FlowStep['actions']>[number]) => {
    try {
      await call(action.endpoint, { ...context, ...data });
      if (action.doneKey) notifySuccess(action.doneKey);
    } catch (error) {
      fail(error);
    }
  }, 1000);

  if (!step)
    return (
      <div data-screen={screen.id}>
        <Title2 as="h1">{t(screen.titleKey)}</Title2>
      </div>
    );
  // Steps that apply to what is known so far (a later choice may still change the later ones).
  const probe = { ...context, ...data };
  const visible = steps.map((st, i) => ({ st, i })).filter(({ st, i }) => i === index || stepApplies(st, probe));
  const back = previousStepIndex(steps, index, context);
  return (
    <div className={s.root} data-screen={screen.id} data-step={step.id}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      <StepIndicator
        titles={visible.map(({ st }) => t(st.titleKey))}
        current={visible.findIndex(({ i }) => i === index)}
        onSelect={(position) => goTo(visible[position]!.i, context)}
      />
      {status && (
        <Body1 className={s.hint} role="status" data-region="flow-status">
          {t(status)}
        </Body1>
      )}
      <EntityForm
        ref={form}
        key={step.id}
        entity={screen.id}
        schema={step.schema as JSONSchema7}
        uiSchema={step.uiSchema ?? {}}
        formData={data}
        onChange={setData}
        onSubmit={(values) => void submit.run(values)}
        serverErrors={serverErrors}
        outside={context}
      />
      <div className={s.bar}>
        {back >= 0 && (
          <Button data-action="back" onClick={() => goTo(back, context)}>
            {t('engine.flow.back')}
          </Button>
        )}
        {(step.actions ?? []).map((action) => (
          <Button
            key={action.id}
            data-action={action.id}
            disabled={runAction.locked}
            onClick={() => void runAction.run(action)}
          >
            {t(action.labelKey)}
          </Button>
        ))}
        <div className={s.right}>
          <Button
            appearance="primary"
            data-action="next"
            disabled={submit.locked}
            onClick={() => form.current?.submit()}
          >
            {t(step.submitKey ?? 'engine.flow.next')}
          </Button>
        </div>
      </div>
    </div>
  );
}
