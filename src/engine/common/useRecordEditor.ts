import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { JSONSchema7 } from 'json-schema';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { HttpError } from '../../client/http.ts';
import { useApi } from '../../client/react/context.tsx';
import {
  useDataProvider,
  useEntity,
  useGetDraft,
  useGetEmpty,
  useGetOne,
  useGetRights,
  useSave,
  useUi,
} from '../../client/react/hooks.ts';
import type { RecordData } from '../../client/data-provider.ts';
import { entityScreenPath } from './routes.ts';
import { rememberTrack, trackParams, type ConfirmationOptions } from '../form/confirmation.ts';
import { useConfirm } from './useConfirm.tsx';
import { useLeaveGuard } from './useLeaveGuard.ts';
import { resolveFieldSchema, SYSTEM_FIELDS } from '../../shared/field-schema.ts';
import { valueAt } from '../../shared/pointer.ts';
import { hiddenFieldsOf, readOnlyFieldsOf } from '../../shared/ability.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { withHiddenFields, withReadOnlyFields, withReplaceableFiles, withoutRequired } from '../form/uiSchema.ts';

const NO_UI = {};

const dataOnly = (record: RecordData): RecordData =>
  Object.fromEntries(Object.entries(record).filter(([k]) => !(SYSTEM_FIELDS as readonly string[]).includes(k)));

/**
 * Initial values of a new record from the query string, for top-level scalar fields only
 * (`?parentId=5` — a tree's "add a child"), typed by the schema; other parameters are ignored.
 */
function prefillOf(schema: JSONSchema7, search: URLSearchParams): RecordData {
  const out: RecordData = {};
  for (const [name, raw] of search) {
    const prop = schema.properties?.[name];
    if (!prop || typeof prop !== 'object') continue;
    if (prop.type === 'integer' || prop.type === 'number') {
      const n = Number(raw);
      if (raw !== '' && Number.isFinite(n)) out[name] = n;
    } else if (prop.type === 'boolean') {
      if (raw === 'true' || raw === 'false') out[name] = raw === 'true';
    } else if (prop.type === 'string') out[name] = raw;
  }
  return out;
}

interface ScreenOptions {
  view?: string;
  /** Values a new record starts with (a wizard of one report kind). */
  initial?: RecordData;
  drafts?: boolean;
  /** A public submission route (`publicSubmit` of the manifest): send there, show the reference number. */
  submit?: { endpoint: string; doneKey?: string };
}

/**
 * Everything a form or wizard screen does with one record: load it (or a blank one, or a
 * draft by its private link), track edits, confirm and save through the data provider, put
 * a 400's field errors on their fields, guard against leaving with unsaved input, and go to
 * the record's page when saved.
 */
export function useRecordEditor(screen: ScreenDefinition) {
  const entity = screen.entity!;
  const options = (screen.options ?? {}) as ScreenOptions;
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const dataProvider = useDataProvider();
  const { reportError, notifySuccess } = useApi();
  const { t } = useTranslation();
  const recordId = params.id !== undefined ? Number(params.id) : undefined;
  const draftId = search.get('draft') ?? undefined;

  const definition = useEntity(entity);
  const ui = useUi(entity, options.view);
  const record = useGetOne(entity, recordId);
  // What this user may change in the record now (its edit rules in its status, their roles).
  const rights = useGetRights(entity, recordId);
  const empty = useGetEmpty(entity, recordId === undefined && !draftId);
  const draft = useGetDraft(entity, draftId);
  const save = useSave(entity);
  const { confirm, dialog } = useConfirm();

  const loaded = recordId !== undefined ? record.data : draftId ? draft.data?.data : empty.data;
  const creating = recordId === undefined && !draftId;
  // The record as loaded, until the first edit. Derived while rendering (not set by an
  // effect), so that a page rendered on the server (the prerender) already holds the form.
  // A new record waits for its schema, which says how to read the query's initial values.
  const initialData = useMemo(
    () =>
      loaded && (!creating || definition.data)
        ? {
            ...dataOnly(loaded),
            ...(creating ? options.initial : {}),
            ...(creating && definition.data ? prefillOf(definition.data.schema, search) : {}),
          }
        : undefined,
    [loaded, creating, definition.data, search, options.initial],
  );
  const [edited, setFormData] = useState<RecordData | undefined>(undefined);
  const formData = edited ?? initialData;
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string> | undefined>(undefined);
  // One key per filled-in form: a double click or a retry after a lost answer is one record.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [submitted, setSubmitted] = useState<{ id: number; referenceNumber: string; createdAt: string } | undefined>(
    undefined,
  );
  useLeaveGuard(dirty, saving);

  const change = (data: RecordData) => {
    setFormData(data);
    setDirty(true);
  };

  const fail = (error: unknown) => {
    if (error instanceof HttpError && error.fieldErrors) setServerErrors(error.fieldErrors);
    reportError(error);
  };

  /** Confirms, saves (create, update or draft submit) and opens the saved record. */
  const submit = async (data: RecordData): Promise<boolean> => {
    if (!(await confirm(recordId !== undefined ? 'update' : 'send'))) return false;
    setSaving(true);
    setServerErrors(undefined);
    try {
      if (options.submit && recordId === undefined) {
        const sent = await dataProvider.submitPublic(options.submit.endpoint, data, { draftId, idempotencyKey });
        setDirty(false);
        setSubmitted(sent);
        notifySuccess('engine.saved.sent');
        // The confirmation page is this route with the reference: a reload shows it again.
        const track = (options.submit as { confirmation?: ConfirmationOptions }).confirmation?.track;
        if (track) rememberTrack(sent.referenceNumber, trackParams(track, sent.referenceNumber, data));
        setSearch({ sent: sent.referenceNumber, on: sent.createdAt }, { replace: true });
        return true;
      }
      const saved =
        draftId && recordId === undefined
          ? await dataProvider.submitDraft(
              entity,
              await dataProvider.saveDraft(entity, draftId, data).then((d) => d.id),
            )
          : await save.mutateAsync({
              id: recordId,
              data: recordId !== undefined ? { ...data, version: record.data?.version } : data,
            });
      setDirty(false);
      notifySuccess(recordId !== undefined ? 'engine.saved.updated' : 'engine.saved.created');
      // The detail of the same screen family (else the family's list) that the user may open.
      const next =
        entityScreenPath(entity, ['detail'], saved.id, ability, screen.route) ??
        entityScreenPath(entity, ['list'], undefined, ability, screen.route);
      // Navigate after the dirty flag is cleared so the leave guard lets it pass.
      setTimeout(() => navigate(next ?? '/', { replace: true }), 0);
      return true;
    } catch (error) {
      fail(error);
      return false;
    } finally {
      setSaving(false);
    }
  };

  /** Keeps the input as a draft and puts its private link in the address bar. */
  const saveDraft = async (data: RecordData): Promise<void> => {
    setServerErrors(undefined);
    try {
      const saved = await dataProvider.saveDraft(entity, draftId, data);
      setDirty(false);
      notifySuccess('engine.saved.draft');
      if (saved.id !== draftId) setSearch({ draft: saved.id }, { replace: true });
    } catch (error) {
      fail(error);
    }
  };

  // Fields the manifest declares unique (a tax ID…) are checked with the server as they are
  // typed, so "already registered" shows before the user presses save.
  const unique = definition.data?.manifest.unique ?? [];
  const uniqueValues = unique.map((p) => valueAt(formData, p));
  const uniqueKey = JSON.stringify(uniqueValues);
  const [uniqueErrors, setUniqueErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!unique.length) return undefined;
    let cancelled = false;
    const timer = setTimeout(() => {
      void Promise.all(
        unique.map(async (pointer, i) => {
          const value = uniqueValues[i];
          if (value === undefined || value === null || value === '') return undefined;
          const found = await dataProvider.findBy(entity, pointer, String(value)).catch(() => null);
          if (!found || found.id === recordId) return undefined;
          const title = resolveFieldSchema(definition.data!.schema, pointer)?.title;
          return [pointer, t('validation.unique', { field: title ? t(title) : pointer })] as const;
        }),
      ).then((pairs) => {
        if (!cancelled) setUniqueErrors(Object.fromEntries(pairs.filter((p) => p !== undefined)));
      });
    }, 400);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [uniqueKey, definition.data]); // eslint-disable-line react-hooks/exhaustive-deps
  const fieldErrors = useMemo(
    () => (Object.keys(uniqueErrors).length || serverErrors ? { ...uniqueErrors, ...serverErrors } : undefined),
    [uniqueErrors, serverErrors],
  );

  // Editing a record: the fields this user may not change now are shown read-only — those the
  // entity's edit rules keep in the record's status, and their roles' read-only fields (the
  // server refuses a change to them anyway). Creating is not restricted by them.
  const ability = useAbility();
  const subject = definition.data?.manifest.subject;
  const readOnly = useMemo(
    () =>
      recordId === undefined
        ? []
        : [
            ...new Set([...(rights.data?.readOnly ?? []), ...(subject ? readOnlyFieldsOf(ability, subject) : [])]),
          ].sort(),
    [ability, subject, recordId, rights.data],
  );
  /** The record is closed to this user in its status: the screen says so instead of a form. */
  const locked = recordId !== undefined && rights.data !== undefined && !rights.data.update;
  // Fields the user may not read (hiddenFields) are left out of the form — the server neither
  // sends them nor lets them change, and keeps their stored values when the form saves.
  // A form that sends to the entity's public submit path also leaves out the fields that path
  // sets by itself (publicSubmit.sets): the sender does not choose them, and they are not
  // required of the sender.
  const publicSubmit = definition.data?.manifest.publicSubmit;
  const sentToSubmit = Boolean(
    options.submit && recordId === undefined && publicSubmit && options.submit.endpoint === `/api${publicSubmit.path}`,
  );
  const hidden = useMemo(
    () => [
      ...(subject ? hiddenFieldsOf(ability, subject) : []),
      ...(sentToSubmit ? Object.keys(publicSubmit?.sets ?? {}) : []),
    ],
    [ability, subject, sentToSubmit, publicSubmit],
  );
  const uiSchema = useMemo(() => {
    const base = (ui.data?.uiSchema as never) ?? NO_UI;
    const marked = readOnly.length ? withReadOnlyFields(base, readOnly) : base;
    // File fields whose files whoever may change them replaces (a photo), by the edit rules.
    const replaceable = definition.data?.edit.replaceableFiles ?? [];
    const files = replaceable.length ? withReplaceableFiles(marked, replaceable) : marked;
    return hidden.length ? withHiddenFields(files, hidden) : files;
  }, [ui.data, readOnly, hidden, definition.data]);
  const schema = useMemo(
    () =>
      definition.data && hidden.length ? withoutRequired(definition.data.schema, hidden) : definition.data?.schema,
    [definition.data, hidden],
  );

  const loadError = definition.error ?? ui.error ?? record.error ?? empty.error ?? draft.error ?? rights.error;
  const ready = Boolean(definition.data && formData && !ui.isLoading && (recordId === undefined || rights.data));
  return {
    entity,
    recordId,
    draftId,
    options,
    definition: definition.data,
    schema,
    ui: ui.data,
    uiSchema,
    readOnly,
    locked,
    formData,
    change,
    dirty,
    saving,
    serverErrors: fieldErrors,
    submit,
    saveDraft,
    submitted,
    ready,
    loadError,
    confirmDialog: dialog,
    version: record.data?.version,
  };
}
