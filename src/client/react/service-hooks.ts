/**
 * Hooks of the public services and questionnaires: a lookup screen's counters, a dashboard's
 * panels and an entity's questionnaires (re-exported by hooks.ts, where screens import them).
 */
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { PanelPage, PanelSource } from '../data-provider.ts';
import { queryKeys } from '../query-keys.ts';
import { useDataProvider } from './use-data-provider.ts';

/** The counters above a lookup screen's form. */
export function useGetLookupStats(path: string | undefined) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.lookupStats(path),
    queryFn: () => dp.getLookupStats(path!),
    enabled: Boolean(path),
  });
}

/**
 * The rows of each of a dashboard's panels for the filters' values (a minute fresh, or live
 * every `refreshSeconds`): all of
 * them, or for a paged panel (`page` given) that page with the total; while the next page
 * loads, the current one stays on screen. A panel the build's server had no rows for is
 * prerendered loading, not as "no data": the figures come from the live server.
 */
export function useGetPanelRows(
  screen: string,
  panels: Array<{
    id: string;
    source: PanelSource;
    query: Record<string, unknown>;
    page?: number | undefined;
    /** Live numbers: asked again every this many seconds, never from the cache. */
    refreshSeconds?: number | undefined;
  }>,
) {
  const dp = useDataProvider();
  return useQueries({
    queries: panels.map((panel) => ({
      queryKey: queryKeys.dashboardPanel(
        screen,
        panel.id,
        panel.page === undefined ? panel.query : { ...panel.query, '#page': panel.page },
      ),
      queryFn: async (): Promise<PanelPage> =>
        panel.page === undefined
          ? { list: await dp.getPanelRows(panel.source, panel.query), total: -1 }
          : dp.getPanelPage(panel.source, panel.query, panel.page),
      staleTime: panel.refreshSeconds ? 0 : 60_000,
      refetchInterval: panel.refreshSeconds ? panel.refreshSeconds * 1000 : false,
      retry: 1,
      placeholderData: keepPreviousData,
      // "No data" from the build's server is no answer for a visitor (src/app/prerender.tsx).
      meta: { prerenderEmpty: false },
    })),
  });
}

/** An entity's open questionnaires. */
export function useGetQuestionnaires(entity: string) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.questionnaire.list(entity),
    queryFn: () => dp.getQuestionnaires(entity),
    retry: 1,
  });
}

/** One questionnaire with its answer form. */
export function useGetQuestionnaire(entity: string, id: string) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.questionnaire.one(entity, id),
    queryFn: () => dp.getQuestionnaire(entity, id),
    retry: 1,
  });
}

/** A questionnaire's per-question counts; `responseId` asks again after the user's own answer. */
export function useGetQuestionnaireResults(
  entity: string,
  id: string,
  { enabled, responseId }: { enabled: boolean; responseId?: number | undefined },
) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.questionnaire.results(entity, id, responseId),
    queryFn: () => dp.getQuestionnaireResults(entity, id),
    enabled,
  });
}

/** The newest 100 questionnaires staff choose from. */
export function useGetQuestionnaireChoices(entity: string) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.questionnaire.choices(entity),
    queryFn: async () =>
      (await dp.getList(entity, { filters: {}, page: 0, itemsPerPage: 100, sortBy: ['id'], sortDesc: [true] })).list,
  });
}
