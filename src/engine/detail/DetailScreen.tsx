import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { Tab, TabList } from '../common/TabList.tsx';
import { DeleteRegular, EditRegular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { JSONSchema7 } from 'json-schema';
import type { ScreenProps } from '../types.ts';
import { useDelete, useEntity, useGetOne, useGetRights, useMachineOrNull } from '../../client/react/hooks.ts';
import { useApi } from '../../client/react/context.tsx';
import { getSetting } from '../../client/settings.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { entityScreenPath, fillRoute, recordBoards, recordViews } from '../common/routes.ts';
import { useConfirm } from '../common/useConfirm.tsx';
import { ScreenState } from '../common/ScreenState.tsx';
import { useRememberRecord } from '../common/useRememberRecord.ts';
import { formatDateTime, statesKeyOf, statusLabel } from '../../shared/format.ts';
import { hiddenFieldsOf } from '../../shared/ability.ts';
import { ChangeHistory } from './ChangeHistory.tsx';
import { keyFactFields, readSections, staffUserIds } from './read-view.ts';
import { RecordView } from './RecordView.tsx';
import { RecordHeader, stateColor } from './RecordHeader.tsx';
import { FilesTab } from './FilesTab.tsx';
import { CommentsTab } from '../comments/CommentsTab.tsx';
import { CreateDocument } from '../documents/CreateDocument.tsx';
import { FilesWithDocuments } from '../documents/FilesWithDocuments.tsx';
import { ChainTree } from './ChainTree.tsx';
import { useReadTools } from './ReadValue.tsx';
import { TransitionBar, TransitionTimeline } from './TransitionBar.tsx';
import { PlainStatus } from './PlainStatus.tsx';
import { RecordActions } from './RecordActions.tsx';
import { NotifyColleagues } from './NotifyColleagues.tsx';
import type { RecordAction } from '../../generated/meta.ts';
import { valueAt } from '../../shared/pointer.ts';
import { useDocumentTitle, useRecordTitle } from '../common/useRecordTitle.ts';

const useStyles = makeStyles({
  meta: {
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    margin: `${tokens.spacingVerticalXS} 0 ${tokens.spacingVerticalM}`,
  },
  // On a phone the tabs wrap rather than hide the last ones off-screen.
  tabs: { flexWrap: 'wrap', marginTop: tokens.spacingVerticalS },
  panel: { marginTop: tokens.spacingVerticalM },
});

type TabName = 'record' | 'files' | 'comments' | 'chain' | 'transitions' | 'history';

/**
 * One record as a page to read: a header (title, the status chip with the state's one label,
 * the screen's key facts, the actions), then tabs — the record as labelled sections of
 * description lists (empty fields left out, no form controls; the edit screen is the form),
 * its files, its status history and its changes in words.
 */
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
  const [tab, setTab] = useState<TabName>('record');
  const ability = useAbility();
  // The applicant's view: a plain sentence instead of the staff's status badge (screen option `plainStatus`).
  const plain = Boolean(screen.options?.plainStatus) && getSetting('isOuter');
  const workflowId = definition.data?.manifest.workflow;
  const machine = useMachineOrNull(workflowId, Boolean(workflowId));
  const ui = definition.data?.ui?.uiSchema;
  const schema = definition.data?.schema as JSONSchema7 | undefined;
  // Fields the user may not read (their roles' hiddenFields): the server does not send them; the page does not name them.
  const hidden = definition.data ? hiddenFieldsOf(ability, definition.data.manifest.subject) : [];
  const hiddenKey = hidden.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `hidden` is a new array each render; hiddenKey is its content
  const sections = useMemo(() => (schema ? readSections(schema, ui, hidden) : []), [schema, ui, hiddenKey]);
  const keyFactPointers = (screen.options as { keyFacts?: string[] } | undefined)?.keyFacts;
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  const keyFacts = useMemo(
    () => (schema && keyFactPointers ? keyFactFields(schema, ui, keyFactPointers, hidden) : []),
    [schema, ui, keyFactPointers, hiddenKey],
  );
  const fields = [...sections.flatMap((x) => x.fields), ...keyFacts];
  const tools = useReadTools(fields, record.data ? staffUserIds(fields, (p) => valueAt(record.data, p)) : []);
  useRememberRecord(definition.data, id, record.data);
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
  const translate = (key: string) => (i18n.exists(key) ? t(key) : undefined);
  // One label per state: the key the list, its filter and the history use (an entity without a
  // machine keeps its records in their first status, shown when it has a label).
  const statesKey = statesKeyOf(def.manifest);
  const chip =
    !plain && (workflow || i18n.exists(`${statesKey}.${data.status}`))
      ? {
          value: data.status,
          label: statusLabel(data.status, translate, statesKey),
          color: stateColor(machine.data, data.status),
        }
      : undefined;
  const edit = rights.data?.update
    ? entityScreenPath(entity, ['form', 'wizard'], id, ability, screen.route, data)
    : undefined;
  const mayDelete = rights.data?.delete === true && ability.can('delete', def.manifest.subject);
  const list = entityScreenPath(entity, ['list'], undefined, ability, screen.route);
  const fileFields = sections.flatMap((x) => x.fields).filter((f) => f.kind === 'files');
  const onDelete = async () => {
    if (!(await confirm('delete'))) return;
    await remove.mutateAsync({ id, version: data.version });
    notifySuccess('engine.saved.deleted');
    navigate(list ?? '/', { replace: true });
  };

  const actions = (
    <>
      {workflow && <TransitionBar entity={entity} machine={workflow} record={data} badge={false} />}
      {[...recordViews(entity, ability), ...recordBoards(screen.route, ability)].map((view) => (
        <Link key={view.id} to={fillRoute(view.route, id)}>
          <Button data-action={view.id}>{t(view.titleKey)}</Button>
        </Link>
      ))}
      <RecordActions
        entity={entity}
        screen={screen.id}
        actions={(screen.options as { recordActions?: RecordAction[] } | undefined)?.recordActions ?? []}
        record={data}
      />
      <CreateDocument manifest={def.manifest} id={id} />
      <NotifyColleagues entity={entity} recordId={id} />
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
    </>
  );

  return (
    <div data-screen={screen.id} data-entity={entity} data-record={id}>
      <RecordHeader
        title={named || `${t(def.manifest.titleKey)} № ${id}`}
        status={chip}
        keyFacts={keyFacts}
        data={data}
        tools={tools}
        actions={actions}
      />
      {plain && machine.data && (
        <PlainStatus entity={entity} machine={machine.data} record={data} schema={def.schema as JSONSchema7} />
      )}
      <div className={s.meta}>
        {named && `${t(def.manifest.titleKey)} № ${id} · `}
        {t('common.field.createdAt')}: {formatDateTime(data.createdAt)} · {t('common.field.updatedAt')}:{' '}
        {formatDateTime(data.updatedAt)}
      </div>
      <TabList className={s.tabs} selectedValue={tab} onTabSelect={(_e, d) => setTab(d.value as TabName)}>
        <Tab value="record" data-tab="record">
          {t('record.tabs.details')}
        </Tab>
        {(fileFields.length > 0 || def.manifest.documents) && (
          <Tab value="files" data-tab="files">
            {t('record.tabs.files')}
          </Tab>
        )}
        {def.manifest.chain && (
          <Tab value="chain" data-tab="chain">
            {t('docflow.tree.tab')}
          </Tab>
        )}
        {def.manifest.comments && (
          <Tab value="comments" data-tab="comments">
            {t('comments.tab')}
          </Tab>
        )}
        {workflow && (
          <Tab value="transitions" data-tab="transitions">
            {t('record.tabs.statusHistory')}
          </Tab>
        )}
        <Tab value="history" data-tab="history">
          {t('record.tabs.changes')}
        </Tab>
      </TabList>
      <div className={s.panel} role="tabpanel">
        {tab === 'record' && <RecordView sections={sections} data={data} tools={tools} />}
        {tab === 'files' && (
          <FilesWithDocuments manifest={def.manifest} id={id}>
            <FilesTab fields={fileFields} data={data} />
          </FilesWithDocuments>
        )}
        {tab === 'comments' && <CommentsTab entity={entity} id={id} manifest={def.manifest} />}
        {tab === 'chain' && <ChainTree entity={entity} id={id} />}
        {tab === 'history' && <ChangeHistory entity={entity} id={id} schema={def.schema as JSONSchema7} />}
        {tab === 'transitions' && workflow && <TransitionTimeline entity={entity} machine={workflow} id={id} />}
      </div>
      {dialog}
    </div>
  );
}
