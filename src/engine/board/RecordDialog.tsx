/**
 * A board's record in a dialog: the entity's own form (its schema and ui.json) to add a column
 * or a card, or to edit one. The fields the board fills itself — the parent, the column, the
 * place — are hidden and carry the values the board gives; a 400's field errors show on
 * their fields.
 */
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { RecordData, StoredRecord } from '../../client/data-provider.ts';
import { HttpError } from '../../client/http.ts';
import { useSave, useUi } from '../../client/react/hooks.ts';
import { FormDialog } from '../common/FormDialog.tsx';
import { EntityForm } from '../form/EntityForm.tsx';

/** What the dialog edits: a new record with the board's values, or a stored one. */
export interface DialogRequest {
  def: EntityDefinition;
  title: string;
  /** The board's own fields (top-level names) and their values: hidden in the form. */
  fixed: Record<string, unknown>;
  record?: StoredRecord;
}

/** The dialog (render it only while open). */
export function RecordDialog({ request, onClose }: { request: DialogRequest; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const ui = useUi(request.def.ui ? undefined : request.def.id);
  const uiDef = request.def.ui ?? ui.data;
  const save = useSave(request.def.id);
  const [errors, setErrors] = useState<Record<string, string> | undefined>();
  const [data, setData] = useState<RecordData>(() => ({ ...(request.record ?? {}), ...request.fixed }));
  const uiSchema = useMemo(() => {
    const base = { ...((uiDef?.uiSchema ?? {}) as Record<string, unknown>) };
    for (const name of Object.keys(request.fixed)) base[name] = { 'ui:widget': 'hidden' };
    return base;
  }, [uiDef, request.fixed]);
  const submit = async (values: RecordData) => {
    try {
      const {
        id,
        version,
        status: _s,
        createdAt: _c,
        updatedAt: _u,
        owner: _o,
        ...rest
      } = {
        ...values,
        ...request.fixed,
        ...(request.record ? { id: request.record.id, version: request.record.version } : {}),
      } as RecordData & { id?: number; version?: number };
      await save.mutateAsync(id === undefined ? { data: rest } : { id, data: { ...rest, version } });
      onClose();
    } catch (error) {
      const fieldErrors = error instanceof HttpError ? (error.body as { fieldErrors?: Record<string, string> }) : {};
      setErrors(fieldErrors?.fieldErrors ?? {});
    }
  };
  return (
    <FormDialog
      title={request.title}
      surface={{ 'data-dialog': `board-${request.def.id}` }}
      onClose={onClose}
      formId={formId}
      busy={save.isPending}
      cancelLabel={t('board.cancel')}
      sendLabel={t('board.save')}
    >
      {(request.def.ui || !ui.isPending) && (
        <EntityForm
          id={formId}
          entity={request.def.id}
          schema={request.def.schema}
          uiSchema={uiSchema}
          formData={data}
          onChange={setData}
          onSubmit={(values) => void submit(values)}
          serverErrors={errors}
          {...(request.record ? { recordId: request.record.id } : {})}
        />
      )}
    </FormDialog>
  );
}
