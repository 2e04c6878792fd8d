/**
 * The React bindings of the data layer: TanStack Query hooks named after the data provider's
 * methods (react-admin's `useGetList`, `useGetOne`…), each reading through one key of the
 * factory (query-keys.ts). Screens read server state only through these hooks and act
 * through the provider's methods (`useDataProvider`); a write invalidates by key prefix (an
 * entity's records, the messenger's lists).
 */
import { keepPreviousData, useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createDataProvider, type ChatRef, type ChatRow, type DataProvider, type GroupRow, type ListParams, type MessengerPage, type PanelSource,
  type RecordData, type StoredRecord, type TransitionInput,
} from '../data-provider.ts';
import type { HttpClient } from '../http.ts';
import { queryKeys } from '../query-keys.ts';
import { loadEntity, loadMachine, loadUi } from '../../definitions/client.ts';
import { useApi } from './context.tsx';

const providers = new WeakMap<HttpClient, DataProvider>();

/**
 * The data provider: the one the context was given (component tests' fakes), else the one
 * over the context's HTTP client, built on first use. Built here rather than by the shell,
 * it loads with the first screen that asks for data, not with every first visit.
 */
export function useDataProvider(): DataProvider {
  const { dataProvider, http } = useApi();
  if (dataProvider) return dataProvider;
  if (!http) throw new Error('<ApiProvider> without a data provider or an HTTP client');
  let made = providers.get(http);
  if (!made) providers.set(http, (made = createDataProvider(http)));
  return made;
}

// ---- records -------------------------------------------------------------------------

/** A page of records; the previous page stays shown while the next one loads. */
export function useGetList(entity: string, params: ListParams, enabled = true) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.entity.list(entity, params), queryFn: () => dp.getList(entity, params), placeholderData: keepPreviousData, enabled });
}

/** One record; `enabled` and `staleTime` for pickers that show a chosen record's label. */
export function useGetOne(entity: string, id: number | undefined, options: { enabled?: boolean; staleTime?: number } = {}) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.entity.one(entity, id ?? 0),
    queryFn: () => dp.getOne(entity, id!),
    enabled: id !== undefined && options.enabled !== false,
    ...(options.staleTime !== undefined ? { staleTime: options.staleTime } : {}),
  });
}

/** What the user may do to the record now (its edit rules in its status, their roles). */
export function useGetRights(entity: string, id: number | undefined) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.entity.rights(entity, id ?? 0), queryFn: () => dp.getRights(entity, id!), enabled: id !== undefined });
}

/** A blank record with the schema's defaults. */
export function useGetEmpty(entity: string, enabled = true) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.entity.empty(entity), queryFn: () => dp.getEmpty(entity), enabled, staleTime: Infinity });
}

/** The record's audit trail. */
export function useGetAudit(entity: string, id: number) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.entity.audit(entity, id), queryFn: () => dp.getAudit(entity, id) });
}

/**
 * Records to choose from as `{id, label}`: those whose keyword fields contain `typed`, or the
 * one record `#<id>` names.
 */
export function useSearchRecords(entity: string, typed: string, label: (record: StoredRecord) => string, options: { enabled: boolean; limit: number }) {
  const dp = useDataProvider();
  const byNumber = /^#\d+$/.test(typed) ? Number(typed.slice(1)) : undefined;
  return useQuery({
    queryKey: queryKeys.entity.keyword(entity, typed),
    queryFn: async () => {
      if (byNumber !== undefined) {
        const record = await dp.getOne(entity, byNumber).catch(() => undefined);
        return record ? [{ id: record.id, label: label(record) }] : [];
      }
      return dp.searchByKeyword(entity, typed, options.limit);
    },
    enabled: options.enabled,
    staleTime: 30_000,
  });
}

/**
 * Every value of one field over an entity's records, sorted, at most `pages` pages of 100;
 * `read` takes the field's value out of a record (empty ones are left out).
 */
export function useGetCatalogue(entity: string, valueField: string, { pages, read }: { pages: number; read: (record: StoredRecord) => string }) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.entity.catalogue(entity, valueField),
    queryFn: async () => {
      const values: string[] = [];
      for (let page = 0; page < pages; page++) {
        const { list, total } = await dp.getList(entity, { filters: {}, page, itemsPerPage: 100, sortBy: [valueField.slice(1)], sortDesc: [false] });
        values.push(...list.map(read).filter(Boolean));
        if ((page + 1) * 100 >= total) break;
      }
      return values;
    },
    enabled: Boolean(entity),
    staleTime: 60_000,
  });
}

/** All records of an entity for a tree, in pages of `page`, at most `limit`; `truncated` when more exist. */
export function useGetTree(entity: string, { enabled, limit, page: size }: { enabled: boolean; limit: number; page: number }) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.entity.tree(entity),
    queryFn: async () => {
      const list: StoredRecord[] = [];
      let total = 0;
      for (let page = 0; page * size < limit; page++) {
        const res = await dp.getList(entity, { filters: {}, page, itemsPerPage: size, sortBy: [], sortDesc: [] });
        list.push(...res.list);
        total = res.total;
        if (list.length >= total || res.list.length < size) break;
      }
      return { list, truncated: total > list.length };
    },
    enabled,
  });
}

/** A reference list (the children of `parent`; `null` waits for a parent), cached for ten minutes. */
export function useGetReference(kind: string | undefined, parent?: number | null, enabled = true) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.reference(kind, parent),
    queryFn: () => dp.getReference(kind!, parent ?? undefined),
    enabled: Boolean(kind) && enabled && parent !== null,
    staleTime: 10 * 60_000,
  });
}

/** Several whole reference lists at once (the same cache entries as {@link useGetReference}). */
export function useGetReferences(kinds: string[]) {
  const dp = useDataProvider();
  return useQueries({
    queries: kinds.map((kind) => ({ queryKey: queryKeys.reference(kind, null), queryFn: () => dp.getReference(kind), staleTime: 10 * 60_000 })),
  });
}

/** A draft by its private id. */
export function useGetDraft(entity: string, id: string | undefined) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.draft(entity, id), queryFn: () => dp.getDraft(entity, id!), enabled: Boolean(id) });
}

/** Names, sizes and types of stored files. */
export function useGetFileInfo(ids: string[]) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.fileInfo(ids), queryFn: () => dp.getFileInfo(ids), enabled: ids.length > 0, retry: false, staleTime: Infinity });
}

/** Saves a record: create without an id, update with one. Invalidates the entity's queries. */
export function useSave(entity: string) {
  const dp = useDataProvider();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, data }: { id?: number; data: RecordData }): Promise<StoredRecord> =>
      id === undefined ? dp.create(entity, data) : dp.update(entity, id, data as RecordData & { version: number }),
    onSuccess: (record) => {
      client.setQueryData(queryKeys.entity.one(entity, record.id), record);
      void client.invalidateQueries({ queryKey: queryKeys.entity.all(entity) });
    },
  });
}

/** Deletes a record; a failure is reported. Invalidates the entity's queries. */
export function useDelete(entity: string) {
  const dp = useDataProvider();
  const client = useQueryClient();
  const { reportError } = useApi();
  return useMutation({
    mutationFn: ({ id, version }: { id: number; version?: number }) => dp.delete(entity, id, version),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.entity.all(entity) }),
    onError: reportError,
  });
}

// ---- definitions ---------------------------------------------------------------------

/** An entity's definition (schema, ui, grid), loaded once per session. */
export function useEntity(entity: string | undefined) {
  return useQuery({ queryKey: queryKeys.definition.entity(entity), queryFn: () => loadEntity(entity!), enabled: Boolean(entity), staleTime: Infinity });
}

/** The form definition a screen uses: the entity's `ui` or the view named in its options. */
export function useUi(entity: string | undefined, view?: string) {
  return useQuery({ queryKey: queryKeys.definition.ui(entity, view), queryFn: () => loadUi(entity!, view), enabled: Boolean(entity), staleTime: Infinity });
}

/** The status machine of an entity, if it has one. */
export function useMachine(workflow: string | undefined) {
  return useQuery({ queryKey: queryKeys.definition.machine(workflow), queryFn: () => loadMachine(workflow), staleTime: Infinity });
}

/** The status machine, or null for an entity without one (a query may not resolve to undefined). */
export function useMachineOrNull(workflow: string | undefined, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.definition.machineOrNull(workflow), queryFn: async () => (await loadMachine(workflow)) ?? null, enabled, staleTime: Infinity });
}

// ---- workflow ------------------------------------------------------------------------

/** The events the user may send to the record now (asked again for each version). */
export function useGetEvents(entity: string, record: { id: number; version: number }) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.entity.events(entity, record.id, record.version), queryFn: () => dp.getEvents(entity, record.id) });
}

/** The record's status changes; with `version`, read again after each change. */
export function useGetTransitions(entity: string, id: number, version?: number) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.entity.transitions(entity, id, version), queryFn: () => dp.getTransitions(entity, id) });
}

/** Sends an event to a record; the answer becomes the cached record at once. */
export function useTransition(entity: string) {
  const dp = useDataProvider();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: TransitionInput }) => dp.transition(entity, id, input),
    onSuccess: (record, { id }) => client.setQueryData(queryKeys.entity.one(entity, id), record),
  });
}

// ---- people and the account ----------------------------------------------------------

/** One staff user by id (the name of a stored value), or null when no longer staff. */
export function useGetStaffUser(id: number | undefined) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.staffUsers.one(id ?? 0),
    queryFn: async () => (await dp.getStaffUsers([id!]))[0] ?? null,
    enabled: id !== undefined,
    staleTime: 60_000,
  });
}

/** Staff users matching what was typed (at most 20). */
export function useSearchStaffUsers(typed: string, enabled: boolean) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.staffUsers.search(typed), queryFn: () => dp.searchStaffUsers(typed, 20), enabled, staleTime: 30_000 });
}

/** The signed-in user's own profile. */
export function useGetProfile() {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.profile(), queryFn: () => dp.getProfile() });
}

/** The header's counters, polled every `refetchInterval` ms; a failure is not retried (spec §8). */
export function useGetCounters({ enabled, refetchInterval }: { enabled: boolean; refetchInterval: number }) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.counters(), queryFn: () => dp.getCounters(), refetchInterval, enabled, retry: false });
}

// ---- public services -----------------------------------------------------------------

/** The counters above a lookup screen's form. */
export function useGetLookupStats(path: string | undefined) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.lookupStats(path), queryFn: () => dp.getLookupStats(path!), enabled: Boolean(path) });
}

/** The rows of each of a dashboard's panels for the filters' values (a minute fresh). */
export function useGetPanelRows(screen: string, panels: Array<{ id: string; source: PanelSource; query: Record<string, unknown> }>) {
  const dp = useDataProvider();
  return useQueries({
    queries: panels.map((panel) => ({
      queryKey: queryKeys.dashboardPanel(screen, panel.id, panel.query),
      queryFn: () => dp.getPanelRows(panel.source, panel.query),
      staleTime: 60_000,
      retry: 1,
    })),
  });
}

/** An entity's open questionnaires. */
export function useGetQuestionnaires(entity: string) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.questionnaire.list(entity), queryFn: () => dp.getQuestionnaires(entity), retry: 1 });
}

/** One questionnaire with its answer form. */
export function useGetQuestionnaire(entity: string, id: string) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.questionnaire.one(entity, id), queryFn: () => dp.getQuestionnaire(entity, id), retry: 1 });
}

/** A questionnaire's per-question counts; `responseId` asks again after the user's own answer. */
export function useGetQuestionnaireResults(entity: string, id: string, { enabled, responseId }: { enabled: boolean; responseId?: number | undefined }) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.questionnaire.results(entity, id, responseId), queryFn: () => dp.getQuestionnaireResults(entity, id), enabled });
}

/** The newest 100 questionnaires staff choose from. */
export function useGetQuestionnaireChoices(entity: string) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.questionnaire.choices(entity),
    queryFn: async () => (await dp.getList(entity, { filters: {}, page: 0, itemsPerPage: 100, sortBy: ['id'], sortDesc: [true] })).list,
  });
}

// ---- messenger -----------------------------------------------------------------------

/**
 * The rows of a messenger tab (100): chats, group chats or colleagues — typed as all shapes
 * at once, the tab says which fields a row has. A failed list shows as empty (spec §8).
 */
export function useMessengerList(tab: 'chats' | 'groups' | 'contacts', search: string) {
  const dp = useDataProvider();
  const get = tab === 'chats' ? dp.getChats : tab === 'groups' ? dp.getGroupChats : dp.getContacts;
  return useQuery({
    queryKey: queryKeys.messenger.list(tab, search),
    queryFn: () => (get({ itemsPerPage: 100, search }) as Promise<MessengerPage<ChatRow & GroupRow>>).catch(() => ({ list: [], total: 0 })),
  });
}

/** Every colleague (200), to choose group members from. */
export function useGetContacts() {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.messenger.contacts(), queryFn: () => dp.getContacts({ itemsPerPage: 200 }) });
}

/** One group chat of the user's, found in their groups. */
export function useGetGroupChat(id: number) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.messenger.group(id), queryFn: async () => (await dp.getGroupChats({ itemsPerPage: 200 })).list.find((g) => g.id === id) });
}

/** A group chat's members (200). */
export function useGetGroupMembers(id: number) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.messenger.members(id), queryFn: () => dp.getGroupMembers(id, { itemsPerPage: 200 }) });
}

/** Where a message may be forwarded: the user's groups and colleagues matching `search` (50 each; a failure lists none). */
export function useForwardTargets(search: string) {
  const dp = useDataProvider();
  const query = { itemsPerPage: 50, search: search.trim() || undefined };
  const empty = { list: [], total: 0 };
  const groups = useQuery({ queryKey: queryKeys.messenger.forwardGroups(search), queryFn: () => dp.getGroupChats(query).catch(() => empty) });
  const people = useQuery({ queryKey: queryKeys.messenger.forwardPeople(search), queryFn: () => dp.getContacts(query).catch(() => empty) });
  return { groups, people };
}

/** A chat's messages in pages of `size`, the newest page first; the next page is the one before its oldest message. */
export function useChatMessages(chat: ChatRef, size: number) {
  const dp = useDataProvider();
  return useInfiniteQuery({
    queryKey: queryKeys.messenger.messages(chat.kind, chat.id),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) => dp.getMessages(chat, { itemsPerPage: size, beforeId: pageParam }),
    getNextPageParam: (last) => (last.list.length < size ? undefined : last.list[0]!.id),
  });
}

/** A chat's messages matching `term` (50; the server's trigram index). */
export function useSearchMessages(chat: ChatRef, term: string, enabled: boolean) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.messenger.search(chat.kind, chat.id, term),
    enabled,
    queryFn: () => dp.getMessages(chat, { itemsPerPage: 50, search: term }),
  });
}
