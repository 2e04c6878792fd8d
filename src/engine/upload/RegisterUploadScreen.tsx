import { Body1, Button, Field, makeStyles, Title2, tokens } from '@fluentui/react-components';
import { ArrowUploadRegular } from '@fluentui/react-icons';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { JSONSchema7 } from 'json-schema';
import type { ScreenProps } from '../types.ts';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider, useEntity, useUi } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { HttpError } from '../../client/http.ts';
import { valueAt } from '../../shared/pointer.ts';
import { entityScreenPath } from '../common/routes.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { useLockedAction } from '../common/useLockedAction.ts';
import { EntityForm, type EntityFormHandle } from '../form/EntityForm.tsx';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '640px' },
  file: { maxWidth: '100%' },
  actions: { marginTop: tokens.spacingVerticalM },
});

/**
 * Registers a record from one uploaded file in one step (screen kind `upload`, over the
 * manifest's `registerFromFile`): the file, then the declared fields with the entity's own
 * labels and widgets; the server stores the file and the record together or not at all, and
 * the new record's page opens. A 400's field errors land on their fields.
 */
export default function RegisterUploadScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility();
  const dp = useDataProvider();
  const { reportError, notifySuccess } = useApi();
  const entity = screen.entity!;
  const definition = useEntity(entity);
  const ui = useUi(entity);
  const form = useRef<EntityFormHandle>(null);
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileMissing, setFileMissing] = useState(false);
  const [data, setData] = useState<Record<string, unknown>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string> | undefined>();
  const spec = definition.data?.manifest.registerFromFile;

  const send = useLockedAction(async () => {
    if (!spec) return;
    const fieldsValid = form.current?.validateFields(Object.values(spec.fields)) !== false;
    setFileMissing(!file);
    if (!fieldsValid || !file) return;
    const values = form.current?.getData() ?? data;
    const fields: Record<string, string> = {};
    for (const [name, pointer] of Object.entries(spec.fields)) {
      const value = valueAt(values, pointer);
      if (value !== undefined && value !== null && value !== '') fields[name] = String(value);
    }
    try {
      const record = await dp.registerFromFile(spec.path, file, fields);
      notifySuccess('engine.saved.created');
      navigate(entityScreenPath(entity, ['detail'], record.id, ability) ?? '/admin');
    } catch (error) {
      if (error instanceof HttpError && error.fieldErrors) setServerErrors(error.fieldErrors);
      reportError(error);
    }
  });

  if (!definition.data || !ui.data || !spec)
    return <ScreenState screenId={screen.id} error={definition.error ?? ui.error} />;
  return (
    <div data-screen={screen.id} data-entity={entity} className={s.root}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      <Body1>{t('docflow.upload.intro')}</Body1>
      <Field
        label={t('docflow.upload.file')}
        required
        validationMessage={fileMissing && !file ? t('docflow.upload.fileMissing') : undefined}
      >
        <input
          id={fileId}
          className={s.file}
          type="file"
          data-field="/file"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setServerErrors(undefined);
          }}
        />
      </Field>
      <EntityForm
        ref={form}
        entity={entity}
        schema={definition.data.schema as JSONSchema7}
        uiSchema={ui.data.uiSchema}
        formData={data}
        fields={Object.values(spec.fields)}
        onChange={setData}
        onSubmit={() => void send.run()}
        serverErrors={serverErrors}
        errorSummary={false}
      >
        <div className={s.actions}>
          <Button
            appearance="primary"
            onClick={() => void send.run()}
            icon={<ArrowUploadRegular />}
            disabled={send.locked}
            data-action="upload"
          >
            {t('docflow.upload.submit')}
          </Button>
        </div>
      </EntityForm>
    </div>
  );
}
