import { Button, makeStyles, Title2, tokens } from '@fluentui/react-components';
import { useDeferredValue, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ScreenProps } from '../types.ts';
import { useRecordEditor } from '../common/useRecordEditor.ts';
import { useLockedAction } from '../common/useLockedAction.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { RecordLocked } from '../common/RecordLocked.tsx';
import { EntityForm, type EntityFormHandle } from './EntityForm.tsx';
import { Confirmation } from './Confirmation.tsx';
import { useGetOne } from '../../client/react/hooks.ts';
import { useDocumentTitle, useRecordTitle } from '../common/useRecordTitle.ts';

const useStyles = makeStyles({
  bar: {
    position: 'sticky',
    bottom: 0,
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
    justifyContent: 'flex-end',
    padding: `${tokens.spacingVerticalS} 0`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    marginTop: tokens.spacingVerticalL,
  },
});

/**
 * Create or edit one record with the entity's form (the route's `:id` selects edit). After a
 * public submission (`options.submit`) the same route with `?sent=<reference>` is its
 * confirmation page, so a reload shows it again.
 */
export default function FormScreen({ screen }: ScreenProps) {
  const [search] = useSearchParams();
  const sent = screen.options?.submit ? search.get('sent') : null;
  if (sent) return <Confirmation screen={screen} reference={sent} sentAt={search.get('on')} />;
  return <EditForm screen={screen} />;
}

function EditForm({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const editor = useRecordEditor(screen);
  const form = useRef<EntityFormHandle>(null);
  const send = useLockedAction(async () => {
    if (form.current?.validateFields() === false) return;
    await editor.submit(editor.formData ?? {});
  });
  const draft = useLockedAction(async () => editor.saveDraft(editor.formData ?? {}));
  // The form's first render (rjsf over the whole schema) is the screen's largest piece of
  // work: as a deferred render React does it in slices between which the page stays
  // responsive, instead of one long task (Lighthouse TBT on a public form).
  const ready = useDeferredValue(editor.ready && Boolean(editor.definition));
  // Editing a record: the heading and the tab name it as stored (not as typed so far).
  const stored = useGetOne(editor.entity, editor.recordId);
  const named = useRecordTitle(editor.definition, editor.recordId === undefined ? undefined : stored.data);
  useDocumentTitle([named, named ? t(screen.titleKey) : undefined]);

  if (editor.submitted)
    return (
      <Confirmation screen={screen} reference={editor.submitted.referenceNumber} sentAt={editor.submitted.createdAt} />
    );
  if (editor.locked) return <RecordLocked screen={screen} recordId={editor.recordId!} />;
  if (!ready || !editor.ready || !editor.definition)
    return <ScreenState screenId={screen.id} error={editor.loadError} />;
  return (
    <div data-screen={screen.id} data-entity={editor.entity}>
      <Title2 as="h1">
        {t(screen.titleKey)}
        {named ? `: ${named}` : ''}
      </Title2>
      <EntityForm
        ref={form}
        entity={editor.entity}
        schema={editor.schema ?? editor.definition.schema}
        uiSchema={editor.uiSchema}
        formData={editor.formData}
        recordId={editor.recordId}
        onChange={editor.change}
        onSubmit={() => void send.run()}
        serverErrors={editor.serverErrors}
      />
      <div className={s.bar}>
        <Button data-action="cancel" onClick={() => navigate(-1)}>
          {t('engine.form.cancel')}
        </Button>
        {editor.options.drafts && editor.recordId === undefined && (
          <Button data-action="save-draft" disabled={draft.locked} onClick={() => void draft.run()}>
            {t('engine.form.saveDraft')}
          </Button>
        )}
        <Button
          appearance="primary"
          data-action="save"
          disabled={send.locked || editor.saving}
          onClick={() => void send.run()}
        >
          {t(
            editor.recordId !== undefined
              ? 'engine.form.update'
              : editor.options.drafts
                ? 'engine.form.send'
                : 'engine.form.save',
          )}
        </Button>
      </div>
      {editor.confirmDialog}
    </div>
  );
}
