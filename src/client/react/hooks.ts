/**
 * The React bindings of the data layer: TanStack Query hooks named after the data provider's
 * methods (react-admin's `useGetList`, `useGetOne`…), each reading through one key of the
 * factory (query-keys.ts). Screens read server state only through these hooks and act
 * through the provider's methods (`useDataProvider`); a write invalidates by key prefix (an
 * entity's records, the messenger's lists).
 *
 * This is the one module screens import hooks from: the hooks of the public services and
 * questionnaires (service-hooks.ts) and of the messenger (messenger-hooks.ts) are kept in
 * modules of their own and re-exported at the end.
 */
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListParams, RecordData, StoredRecord, TransitionInput } from '../data-provider.ts';
import { queryKeys } from '../query-keys.ts';
import { loadEntity, loadMachine, loadUi } from '../../definitions/client.ts';
import { useApi } from './context.tsx';
import { useDataProvider } from './use-data-provider.ts';
import { sortName } from '../../shared/format.ts';

// ---- records -------------------------------------------------------------------------

/** A page of records; the previous page stays shown while the next one loads. */
export function useGetList(entity: string, params: ListParams, enabled = true) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.entity.list(entity, params),
    queryFn: () => dp.getList(entity, params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** One record; `enabled` and `staleTime` for pickers that show a chosen record's label. */
export function useGetOne(
  entity: string,
  id: number | undefined,
  options: { enabled?: boolean; staleTime?: number } = {},
) {
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
  return useQuery({
    queryKey: queryKeys.entity.rights(entity, id ?? 0),
    queryFn: () => dp.getRights(entity, id!),
    enabled: id !== undefined,
  });
}

/** A blank record with the schema's defaults. */
export function useGetEmpty(entity: string, enabled = true) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.entity.empty(entity),
    queryFn: () => dp.getEmpty(entity),
    enabled,
    staleTime: Infinity,
  });
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
export function useSearchRecords(
  entity: string,
  typed: string,
  label: (record: StoredRecord) => string,
  options: { enabled: boolean; limit: number },
) {
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
export function useGetCatalogue(
  entity: string,
  valueField: string,
  { pages, read, enabled = true }: { pages: number; read: (record: StoredRecord) => string; enabled?: boolean },
) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.entity.catalogue(entity, valueField),
    queryFn: async () => {
      const values: string[] = [];
      for (let page = 0; page < pages; page++) {
        const { list, total } = await dp.getList(entity, {
          filters: {},
          page,
          itemsPerPage: 100,
          sortBy: [sortName(valueField)],
          sortDesc: [false],
        });
        values.push(...list.map(read).filter(Boolean));
        if ((page + 1) * 100 >= total) break;
      }
      return values;
    },
    enabled: Boolean(entity) && enabled,
    staleTime: 60_000,
  });
}

/** All records of an entity for a tree, in pages of `page`, at most `limit`; `truncated` when more exist. */
export function useGetTree(
  entity: string,
  { enabled, limit, page: size }: { enabled: boolean; limit: number; page: number },
) {
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

/** My saved views of a list screen (`enabled` false: not asked, e.g. for a visitor). */
export function useGetViews(screen: string, enabled = true) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.views(screen), queryFn: () => dp.getViews(screen), enabled });
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
    queries: kinds.map((kind) => ({
      queryKey: queryKeys.reference(kind, null),
      queryFn: () => dp.getReference(kind),
      staleTime: 10 * 60_000,
    })),
  });
}

/** A draft by its private id. */
export function useGetDraft(entity: string, id: string | undefined) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.draft(entity, id),
    queryFn: () => dp.getDraft(entity, id!),
    enabled: Boolean(id),
  });
}

/** Names, sizes and types of stored files. */
export function useGetFileInfo(ids: string[]) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.fileInfo(ids),
    queryFn: () => dp.getFileInfo(ids),
    enabled: ids.length > 0,
    retry: false,
    staleTime: Infinity,
  });
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
  return useQuery({
    queryKey: queryKeys.definition.entity(entity),
    queryFn: () => loadEntity(entity!),
    enabled: Boolean(entity),
    staleTime: Infinity,
  });
}

/** The form definition a screen uses: the entity's `ui` or the view named in its options. */
export function useUi(entity: string | undefined, view?: string) {
  return useQuery({
    queryKey: queryKeys.definition.ui(entity, view),
    queryFn: () => loadUi(entity!, view),
    enabled: Boolean(entity),
    staleTime: Infinity,
  });
}

/** The status machine of an entity, if it has one. */
export function useMachine(workflow: string | undefined) {
  return useQuery({
    queryKey: queryKeys.definition.machine(workflow),
    queryFn: () => loadMachine(workflow),
    staleTime: Infinity,
  });
}

/** Several status machines at once (a role's permission matrix lists every machine's events); by workflow id. */
export function useMachines(workflows: readonly string[]) {
  return useQueries({
    queries: workflows.map((workflow) => ({
      queryKey: queryKeys.definition.machine(workflow),
      queryFn: () => loadMachine(workflow),
      staleTime: Infinity,
    })),
    combine: (results) => new Map(workflows.map((w, i) => [w, results[i]?.data] as const)),
  });
}

/** The status machine, or null for an entity without one (a query may not resolve to undefined). */
export function useMachineOrNull(workflow: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.definition.machineOrNull(workflow),
    queryFn: async () => (await loadMachine(workflow)) ?? null,
    enabled,
    staleTime: Infinity,
  });
}

// ---- workflow ------------------------------------------------------------------------

/** The events the user may send to the record now (asked again for each version). */
export function useGetEvents(entity: string, record: { id: number; version: number }) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.entity.events(entity, record.id, record.version),
    queryFn: () => dp.getEvents(entity, record.id),
  });
}

/** The record's status changes; with `version`, read again after each change. */
export function useGetTransitions(entity: string, id: number, version?: number) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.entity.transitions(entity, id, version),
    queryFn: () => dp.getTransitions(entity, id),
  });
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

/** Several staff users by id in one request (names of stored values, a history's actors); unknown ids are left out. */
export function useGetStaffUsers(ids: readonly number[]) {
  const dp = useDataProvider();
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  return useQuery({
    queryKey: queryKeys.staffUsers.many(sorted),
    queryFn: () => dp.getStaffUsers(sorted),
    enabled: sorted.length > 0,
    staleTime: 60_000,
  });
}

/** Staff users matching what was typed (at most 20). */
export function useSearchStaffUsers(typed: string, enabled: boolean) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.staffUsers.search(typed),
    queryFn: () => dp.searchStaffUsers(typed, 20),
    enabled,
    staleTime: 30_000,
  });
}

/** The signed-in user's own profile. */
export function useGetProfile() {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.profile(), queryFn: () => dp.getProfile() });
}

/** The header's counters, polled every `refetchInterval` ms; a failure is not retried (spec §8). */
export function useGetCounters({ enabled, refetchInterval }: { enabled: boolean; refetchInterval: number }) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.counters(),
    queryFn: () => dp.getCounters(),
    refetchInterval,
    enabled,
    retry: false,
  });
}

export { useDataProvider } from './use-data-provider.ts';
export * from './service-hooks.ts';
export * from './messenger-hooks.ts';
export * from './comment-hooks.ts';
export * from './board-hooks.ts';
export * from './notification-hooks.ts';
export * from './integration-hooks.ts';

/** The records waiting for the signed-in user (GET /api/my-work), read again when a record changes. */
export function useGetMyWork({ enabled }: { enabled: boolean }) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.myWork(), queryFn: () => dp.getMyWork(), enabled });
}
