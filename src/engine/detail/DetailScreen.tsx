import { Badge, Button, makeStyles, Tab, TabList, Title2, tokens } from '@fluentui/react-components';
import { DeleteRegular, EditRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { JSONSchema7 } from 'json-schema';
import type { ScreenProps } from '../types.ts';
import { useDelete, useEntity, useGetOne, useGetRights, useMachine } from '../../client/react/hooks.ts';
import { useApi } from '../../client/react/context.tsx';
import { getSetting } from '../../client/settings.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { entityScreenPath, fillRoute, recordViews } from '../common/routes.ts';
import { useConfirm } from '../common/useConfirm.tsx';
import { ScreenState } from '../common/ScreenState.tsx';
import { formatDateTime, statesKeyOf } from '../../shared/format.ts';
import { resolveFieldSchema, SYSTEM_FIELDS } from '../../shared/field-schema.ts';
import { EntityForm } from '../form/EntityForm.tsx';
import { withHiddenFields } from '../form/uiSchema.ts';
import { hiddenFieldsOf } from '../../shared/ability.ts';
import { HistoryTable } from './HistoryTable.tsx';
import { TransitionBar, TransitionTimeline } from './TransitionBar.tsx';
import { PlainStatus } from './PlainStatus.tsx';
import { RecordActions } from './RecordActions.tsx';
import type { RecordAction } from '../../generated/meta.ts';
import { useDocumentTitle, useRecordTitle } from '../common/useRecordTitle.ts';

const useStyles = makeStyles({
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, marginLeft: 'auto', flexWrap: 'wrap' },
  meta: { color: tokens.colorNeutralForeground3, margin: `${tokens.spacingVerticalXS} 0 ${tokens.spacingVerticalM}` },
});

/** One record, read-only by the same schema as its form, with its history and actions. */
export default function DetailScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const entity = screen.entity!;
  const id = Number(useParams().id);
  const definition = useEntity(entity);
  const record = useGetOne(entity, id);
  // Edit and delete follow the record's edit rules in its status, as the server judges them.
  const rights = useGetRights(entity, id);
  const remove = useDelete(entity);
  const { notifySuccess } = useApi();
  const { confirm, dialog } = useConfirm();
  const [tab, setTab] = useState<'record' | 'history' | 'transitions'>('record');
  const ability = useAbility();
  // The applicant's view: a plain sentence instead of the staff's status badge (screen option `plainStatus`).
  const plain = Boolean(screen.options?.plainStatus) && getSetting('isOuter');
  const machine = useMachine(plain ? definition.data?.manifest.workflow : undefined);
  // The record by its name (manifest titleFields / labelField), not "<entity> No. 13".
  const named = useRecordTitle(definition.data, record.data);
  useDocumentTitle([named, definition.data ? t(definition.data.manifest.titleKey) : undefined]);

  if (!definition.data || !record.data) {
    return (
      <ScreenState
        screenId={screen.id}
        error={definition.error ?? record.error}
        onRetry={() => void record.refetch()}
      />
    );
  }
  const def = definition.data;
  const data = record.data;
  const workflow = def.manifest.workflow;
  // An entity without a machine keeps its records in their first status: its label, when it has one.
  const stateLabel = `${statesKeyOf(def.manifest)}.${data.status}`;
  const edit = rights.data?.update
    ? entityScreenPath(entity, ['form', 'wizard'], id, ability, screen.route)
    : undefined;
  const mayDelete = rights.data?.delete === true && ability.can('delete', def.manifest.subject);
  const list = entityScreenPath(entity, ['list'], undefined, ability, screen.route);
  // Fields the user may not read (their roles' hiddenFields): the server does not send them; the form does not show them empty.
  const hidden = hiddenFieldsOf(ability, def.manifest.subject);
  const uiSchema = hidden.length ? withHiddenFields(def.ui?.uiSchema, hidden) : (def.ui?.uiSchema ?? {});
  const fieldTitle = (pointer: string) => {
    const title = resolveFieldSchema(def.schema as JSONSchema7, pointer)?.title;
    return title ? t(title) : pointer;
  };
  const onDelete = async () => {
    if (!(await confirm('delete'))) return;
    await remove.mutateAsync({ id, version: data.version });
    notifySuccess('engine.saved.deleted');
    navigate(list ?? '/', { replace: true });
  };

  return (
    <div data-screen={screen.id} data-entity={entity} data-record={id}>
      <div className={s.head}>
        <Title2 as="h1">{named || `${t(def.manifest.titleKey)} № ${id}`}</Title2>
        {!workflow && i18n.exists(stateLabel) && (
          <Badge appearance="tint" data-status={data.status}>
            {t(stateLabel)}
          </Badge>
        )}
        <div className={s.actions}>
          {recordViews(entity, ability).map((view) => (
            <Link key={view.id} to={fillRoute(view.route, id)}>
              <Button data-action={view.id}>{t(view.titleKey)}</Button>
            </Link>
          ))}
          <RecordActions
            entity={entity}
            actions={(screen.options as { recordActions?: RecordAction[] } | undefined)?.recordActions ?? []}
            record={data}
          />
          {edit && (
            <Link to={edit}>
              <Button appearance="primary" icon={<EditRegular />} data-action="edit">
                {t('engine.detail.edit')}
              </Button>
            </Link>
          )}
          {mayDelete && (
            <Button icon={<DeleteRegular />} data-action="delete" onClick={() => void onDelete()}>
              {t('engine.detail.delete')}
            </Button>
          )}
        </div>
      </div>
      {plain && machine.data && (
        <PlainStatus entity={entity} machine={machine.data} record={data} schema={def.schema as JSONSchema7} />
      )}
      {workflow && <TransitionBar entity={entity} machine={workflow} record={data} badge={!plain} />}
      <div className={s.meta}>
        {named && `${t(def.manifest.titleKey)} № ${id} · `}
        {t('common.field.createdAt')}: {formatDateTime(data.createdAt)} · {t('common.field.updatedAt')}:{' '}
        {formatDateTime(data.updatedAt)} · {t('common.field.version')}: {data.version}
      </div>
      <TabList selectedValue={tab} onTabSelect={(_e, d) => setTab(d.value as typeof tab)}>
        <Tab value="record" data-tab="record">
          {t('engine.detail.record')}
        </Tab>
        <Tab value="history" data-tab="history">
          {t('engine.detail.history')}
        </Tab>
        {workflow && (
          <Tab value="transitions" data-tab="transitions">
            {t('workflow.ui.history')}
          </Tab>
        )}
      </TabList>
      <div style={{ marginTop: 12 }}>
        {tab === 'record' && (
          <EntityForm
            entity={entity}
            schema={def.schema}
            uiSchema={uiSchema}
            formData={dataOnly(data)}
            readOnly
            onSubmit={() => undefined}
          />
        )}
        {tab === 'history' && (
          <HistoryTable entity={entity} id={id} schema={def.schema as JSONSchema7} fieldTitle={fieldTitle} />
        )}
        {tab === 'transitions' && workflow && <TransitionTimeline entity={entity} machine={workflow} id={id} />}
      </div>
      {dialog}
    </div>
  );
}

const dataOnly = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([k]) => !(SYSTEM_FIELDS as readonly string[]).includes(k)));
