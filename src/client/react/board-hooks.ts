/**
 * The hook of the `order` capability: a move shown at once (TanStack Query's optimistic
 * update of the list it changes), put back when the server refuses it. A 409 — someone moved
 * or edited the board since it was read — calls `onConflict` (the screen says so); any other
 * failure is reported as usual. Either way the entity's queries are read again afterwards.
 */
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { MoveInput, OrderEntry, StoredRecord } from '../data-provider.ts';
import { HttpError } from '../http.ts';
import { queryKeys } from '../query-keys.ts';
import { useApi } from './context.tsx';
import { useDataProvider } from './use-data-provider.ts';

/** One move: the record and where it goes. */
export interface MoveVariables {
  id: number;
  input: MoveInput;
}

/**
 * Moves records of `entity`; `optimistic` computes the cached data at `key` as it will be.
 * @example const move = useMoveRecord('project-task-card', key, (data, v) => moved(data, v), () => setConflict(true))
 */
export function useMoveRecord<T>(
  entity: string,
  key: QueryKey,
  optimistic: (data: T, move: MoveVariables) => T,
  onConflict: () => void,
) {
  const dp = useDataProvider();
  const client = useQueryClient();
  const { reportError } = useApi();
  return useMutation<{ order: OrderEntry[] }, unknown, MoveVariables, { previous: T | undefined }>({
    mutationFn: ({ id, input }) => dp.moveRecord(entity, id, input),
    onMutate: async (move) => {
      // A read still under way would overwrite the optimistic order with the old one.
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<T>(key);
      if (previous !== undefined) client.setQueryData<T>(key, optimistic(previous, move));
      return { previous };
    },
    onError: (error, _move, context) => {
      if (context?.previous !== undefined) client.setQueryData<T>(key, context.previous);
      if (error instanceof HttpError && error.status === 409) onConflict();
      else reportError(error);
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.entity.all(entity) }),
  });
}

/** Pages of 100 (the API's largest) read for {@link useGetEvery}, at most this many records. */
export const EVERY_LIMIT = 1000;

/**
 * Every record of `entity` matching `filters` in `sortBy` order (ascending), read page by page
 * up to {@link EVERY_LIMIT}: a board's columns or cards. `total` says when there were more.
 */
export function useGetEvery(
  entity: string | undefined,
  filters: Record<string, string | number>,
  sortBy: readonly string[],
  enabled = true,
) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.entity.every(entity ?? '', filters, sortBy),
    queryFn: async (): Promise<{ list: StoredRecord[]; total: number }> => {
      const list: StoredRecord[] = [];
      let total = 0;
      for (let page = 0; list.length < EVERY_LIMIT; page++) {
        const params = { filters, page, itemsPerPage: 100, sortBy: [...sortBy], sortDesc: sortBy.map(() => false) };
        const reply = await dp.getList(entity!, params);
        list.push(...reply.list);
        total = reply.total;
        if (reply.list.length < 100 || list.length >= total) break;
      }
      return { list, total };
    },
    enabled: Boolean(entity) && enabled,
  });
}
