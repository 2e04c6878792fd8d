/**
 * Hooks of the integration platform: the agencies and methods the user may query, one call
 * (a mutation: it is audited, so it is never repeated by a refetch), the agencies' health and
 * the call audit with its titles.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IntegrationAuditFilters, IntegrationCallInput } from '../data-provider.ts';
import { queryKeys } from '../query-keys.ts';
import { useDataProvider } from './use-data-provider.ts';

/**
 * GET /api/integrations: the agencies and methods the user may query, titled in `locale` (read
 * again every minute: breakers change).
 */
export function useGetIntegrations(locale: string, enabled = true) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.integrations.catalogue(locale),
    queryFn: () => dp.getIntegrations(),
    enabled,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}

/**
 * One call of an agency's method. Afterwards the catalogue (a breaker may have opened), the
 * health and the audit are read again.
 */
export function useCallIntegration() {
  const dp = useDataProvider();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: IntegrationCallInput) => dp.callIntegration(input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: queryKeys.integrations.all() }),
  });
}

/** Each agency's connection, circuit and recent latency, titled in `locale` (read again every `refetchSeconds`). */
export function useGetIntegrationHealth(locale: string, refetchSeconds = 30) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.integrations.health(locale),
    queryFn: () => dp.getIntegrationHealth(),
    refetchInterval: refetchSeconds * 1000,
  });
}

/** A page (from 0) of the call audit; the page shown stays while the next one loads. */
export function useSearchIntegrationCalls(filters: IntegrationAuditFilters, page: number, size: number) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.integrations.audit(filters as Record<string, unknown>, page, size),
    queryFn: () => dp.searchIntegrationCalls(filters, page, size),
    placeholderData: keepPreviousData,
  });
}

/** The titles of every agency and method in `locale` (the audit's filters and rows). */
export function useGetIntegrationTitles(locale: string) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.integrations.titles(locale),
    queryFn: () => dp.getIntegrationTitles(),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** A registry's import log (manifest `registryImport`), read again every half minute (the schedule runs). */
export function useGetRegistryImports(base: string | undefined, locale: string) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.integrations.imports(base ?? '', locale),
    queryFn: () => dp.getRegistryImports(base!),
    enabled: base !== undefined,
    refetchInterval: 30_000,
  });
}

/** "Refresh now": runs a registry's import; the log and the registry's lists are read again. */
export function useRunRegistryImport(base: string | undefined, entity: string | undefined) {
  const dp = useDataProvider();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dp.runRegistryImport(base!),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.integrations.all() });
      if (entity) void queryClient.invalidateQueries({ queryKey: queryKeys.entity.all(entity) });
    },
  });
}
