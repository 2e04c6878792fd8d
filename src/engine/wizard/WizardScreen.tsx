import { Button, Checkbox, makeStyles, Title2, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../types.ts';
import { useRecordEditor } from '../common/useRecordEditor.ts';
import { RecordLocked } from '../common/RecordLocked.tsx';
import { useLockedAction } from '../common/useLockedAction.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { EntityForm, type EntityFormHandle } from '../form/EntityForm.tsx';
import { focusField } from '../form/ErrorSummary.tsx';
import { isWithin } from '../form/pointer.ts';
import { StepIndicator } from './StepIndicator.tsx';
import type { RecordData } from '../../client/data-provider.ts';

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
    justifyContent: 'space-between',
    alignItems: 'center',
    marginTop: tokens.spacingVerticalL,
  },
  right: { display: 'flex', gap: tokens.spacingHorizontalS, marginLeft: 'auto' },
});

interface SessionDraft {
  step: number;
  data: RecordData;
}

/** How long typing rests before the input is written to sessionStorage. */
const DRAFT_WRITE_DELAY_MS = 400;

/** Where a wizard keeps its input across steps and an accidental reload (this tab only). */
const sessionKey = (screenId: string, recordId: number | undefined, draftId: string | undefined) =>
  `portal.wizard.${screenId}.${recordId ?? draftId ?? 'new'}`;

/**
 * A multi-step form from the ui definition's `wizard.steps`: each step validates its own
 * fields before the next, the input survives a reload, and the last step asks the user to
 * confirm the data before it is sent.
 */
export default function WizardScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const editor = useRecordEditor(screen);
  const form = useRef<EntityFormHandle>(null);
  const key = sessionKey(screen.id, editor.recordId, editor.draftId);
  const [step, setStep] = useState(0);
  const [confirmed, setConfirmed] = useState(false);
  const restored = useRef(false);

  // Restore what this tab had typed before a reload, once the record itself is loaded.
  useEffect(() => {
    if (!editor.ready || restored.current) return;
    restored.current = true;
    const raw = sessionStorage.getItem(key);
    if (!raw) return;
    try {
      const saved = JSON.parse(raw) as SessionDraft;
      editor.change(saved.data);
      setStep(saved.step);
    } catch {
      sessionStorage.removeItem(key);
    }
  }, [editor.ready]); // eslint-disable-line react-hooks/exhaustive-deps

  // The input is kept in sessionStorage: at once when the step changes, else once typing rests —
  // the write is synchronous and holds all the data (a report of 300 rows is some 40 kB), too
  // much for every key press — and in any case before the page or the screen goes away.
  const pendingWrite = useRef<(() => void) | undefined>(undefined);
  const writtenStep = useRef(step);
  useEffect(() => {
    if (!editor.ready || !editor.dirty || !editor.formData) return undefined;
    const draft = { step, data: editor.formData } satisfies SessionDraft;
    const write = () => {
      pendingWrite.current = undefined;
      writtenStep.current = draft.step;
      sessionStorage.setItem(key, JSON.stringify(draft));
    };
    pendingWrite.current = write;
    if (step !== writtenStep.current) {
      write();
      return undefined;
    }
    const timer = window.setTimeout(write, DRAFT_WRITE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [editor.ready, editor.dirty, editor.formData, step, key]);
  useEffect(() => {
    const flush = () => pendingWrite.current?.();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);

  const steps = editor.ui?.wizard?.steps ?? [];
  const last = step === steps.length - 1;
  const current = steps[Math.min(step, Math.max(0, steps.length - 1))];

  // A summary link to a field of another step: that step opens, shows its errors and focuses the field.
  const [goTo, setGoTo] = useState<string | null>(null);
  const showField = (pointer: string) => {
    const index = steps.findIndex((st) => st.fields.some((f) => isWithin(pointer, f)));
    if (index < 0) return;
    setStep(index);
    setGoTo(pointer);
  };
  useEffect(() => {
    if (!goTo) return;
    // The step's form mounts anew (keyed by step): once its fields are there, check them and move to the field.
    let tries = 0;
    const timer = window.setInterval(() => {
      const there = document.querySelector(`[data-field="${CSS.escape(goTo)}"]`);
      if (!there && ++tries < 40) return;
      window.clearInterval(timer);
      setGoTo(null);
      if (!there) return;
      form.current?.validateFields(current?.fields);
      // After the summary (which takes the focus as it appears) has rendered.
      window.setTimeout(() => focusField(document, goTo), 150);
    }, 50);
    return () => window.clearInterval(timer);
  }, [goTo, current?.fields]);

  const next = () => {
    if (!current || form.current?.validateFields(current.fields) === false) return;
    setStep((i) => Math.min(i + 1, steps.length - 1));
    window.scrollTo({ top: 0 });
  };
  const send = useLockedAction(async () => {
    if (!confirmed) return;
    if (form.current?.validateFields() === false) return;
    if (await editor.submit(editor.formData ?? {})) {
      pendingWrite.current = undefined;
      sessionStorage.removeItem(key);
    }
  });
  const draft = useLockedAction(async () => editor.saveDraft(editor.formData ?? {}));

  if (editor.locked) return <RecordLocked screen={screen} recordId={editor.recordId!} />;
  if (!editor.ready || !editor.definition) return <ScreenState screenId={screen.id} error={editor.loadError} />;
  if (!current) return <ScreenState screenId={screen.id} error={new Error('no wizard steps')} />;
  return (
    <div data-screen={screen.id} data-entity={editor.entity} data-step={step}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      <StepIndicator titles={steps.map((st) => t(st.titleKey))} current={step} onSelect={setStep} />
      <EntityForm
        ref={form}
        key={current.id}
        entity={editor.entity}
        schema={editor.schema ?? editor.definition.schema}
        uiSchema={editor.uiSchema}
        formData={editor.formData}
        recordId={editor.recordId}
        onChange={editor.change}
        onSubmit={() => (last ? void send.run() : next())}
        serverErrors={editor.serverErrors}
        fields={current.fields}
        onFieldElsewhere={showField}
      />
      {last && (
        <div data-field="/__confirm">
          <Checkbox
            checked={confirmed}
            onChange={(_e, d) => setConfirmed(Boolean(d.checked))}
            label={t(editor.ui?.wizard?.confirmKey ?? 'engine.wizard.confirm')}
          />
        </div>
      )}
      <div className={s.bar}>
        <Button data-action="back" disabled={step === 0} onClick={() => setStep((i) => Math.max(0, i - 1))}>
          {t('engine.wizard.back')}
        </Button>
        <div className={s.right}>
          {editor.options.drafts && editor.recordId === undefined && (
            <Button data-action="save-draft" disabled={draft.locked} onClick={() => void draft.run()}>
              {t('engine.form.saveDraft')}
            </Button>
          )}
          {last ? (
            <Button
              appearance="primary"
              data-action="save"
              disabled={!confirmed || send.locked || editor.saving}
              onClick={() => void send.run()}
            >
              {t(editor.recordId !== undefined ? 'engine.form.update' : 'engine.form.send')}
            </Button>
          ) : (
            <Button appearance="primary" data-action="next" onClick={next}>
              {t('engine.wizard.next')}
            </Button>
          )}
        </div>
      </div>
      {editor.confirmDialog}
    </div>
  );
}
