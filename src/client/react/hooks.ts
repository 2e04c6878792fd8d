/**
 * TanStack Query hooks named after the data provider's methods. Query keys start with the
 * entity id, so a write invalidates exactly that entity's lists and records.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListParams, RecordData, StoredRecord } from '../data-provider.ts';
import { useApi, useDataProvider } from './context.tsx';

export const entityKeys = {
  all: (entity: string) => ['entity', entity] as const,
  list: (entity: string, params: ListParams) => ['entity', entity, 'list', params] as const,
  one: (entity: string, id: number) => ['entity', entity, 'one', id] as const,
  empty: (entity: string) => ['entity', entity, 'empty'] as const,
  history: (entity: string, id: number) => ['entity', entity, 'history', id] as const,
  rights: (entity: string, id: number) => ['entity', entity, 'rights', id] as const,
};

export function useGetList(entity: string, params: ListParams, enabled = true) {
  const dp = useDataProvider();
  return useQuery({ queryKey: entityKeys.list(entity, params), queryFn: () => dp.getList(entity, params), placeholderData: keepPreviousData, enabled });
}

export function useGetOne(entity: string, id: number | undefined) {
  const dp = useDataProvider();
  return useQuery({ queryKey: entityKeys.one(entity, id ?? 0), queryFn: () => dp.getOne(entity, id!), enabled: id !== undefined });
}

/** What the user may do to the record now (its edit rules in its status, their roles). */
export function useGetRights(entity: string, id: number | undefined) {
  const dp = useDataProvider();
  return useQuery({ queryKey: entityKeys.rights(entity, id ?? 0), queryFn: () => dp.getRights(entity, id!), enabled: id !== undefined });
}

export function useGetEmpty(entity: string, enabled = true) {
  const dp = useDataProvider();
  return useQuery({ queryKey: entityKeys.empty(entity), queryFn: () => dp.getEmpty(entity), enabled, staleTime: Infinity });
}

export function useGetHistory(entity: string, id: number) {
  const dp = useDataProvider();
  return useQuery({ queryKey: entityKeys.history(entity, id), queryFn: () => dp.getHistory(entity, id) });
}

export function useGetReference(kind: string | undefined, parent?: number | null, enabled = true) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: ['reference', kind, parent ?? null],
    queryFn: () => dp.getReference(kind!, parent ?? undefined),
    enabled: Boolean(kind) && enabled && parent !== null,
    staleTime: 10 * 60_000,
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
      client.setQueryData(entityKeys.one(entity, record.id), record);
      void client.invalidateQueries({ queryKey: entityKeys.all(entity) });
    },
  });
}

export function useDelete(entity: string) {
  const dp = useDataProvider();
  const client = useQueryClient();
  const { reportError } = useApi();
  return useMutation({
    mutationFn: ({ id, version }: { id: number; version?: number }) => dp.delete(entity, id, version),
    onSuccess: () => void client.invalidateQueries({ queryKey: entityKeys.all(entity) }),
    onError: reportError,
  });
}
