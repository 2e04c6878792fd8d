/**
 * Hooks of in-app notifications: a box's pages, the bell's latest and unread count, the read
 * marks, a note to colleagues, and the live channel that keeps them all current.
 */
import { useEffect } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationBox, NotificationItem } from '../data-provider.ts';
import { queryKeys } from '../query-keys.ts';
import { subscribeLive } from '../live.ts';
import { useDataProvider } from './use-data-provider.ts';

/** The page size of the notifications screen ("show more" asks for one more page). */
export const NOTIFICATION_PAGE = 20;

/** The first `pages` pages of a box, as one list. */
export function useNotifications(box: NotificationBox, pages: number) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.notifications.list(box, pages),
    queryFn: () => dp.listNotifications({ box, page: 1, itemsPerPage: NOTIFICATION_PAGE * pages }),
    placeholderData: keepPreviousData,
  });
}

/** The bell's five latest received notifications. */
export function useLatestNotifications(enabled: boolean) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.notifications.latest(),
    queryFn: () => dp.listNotifications({ box: 'incoming', page: 1, itemsPerPage: 5 }),
    enabled,
  });
}

/**
 * The unread count of the bell. A failed fetch counts 0 (spec §7, §8); the poll every
 * `refetchInterval` is the fallback of the live channel.
 */
export function useUnreadNotificationCount(enabled: boolean, refetchInterval: number) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.notifications.unread(),
    queryFn: async () => (await dp.getUnreadNotificationCount().catch(() => ({ count: 0 }))).count,
    enabled,
    refetchInterval,
    retry: false,
  });
}

/** Marks one notification read (on opening it); every notification query is refreshed. */
export function useMarkNotificationRead() {
  const dp = useDataProvider();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: NotificationItem) => dp.markNotificationRead(item.id),
    onSuccess: ({ count }) => {
      queryClient.setQueryData(queryKeys.notifications.unread(), count);
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all() });
    },
  });
}

/** Marks every received notification read. */
export function useMarkAllNotificationsRead() {
  const dp = useDataProvider();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dp.markAllNotificationsRead(),
    onSuccess: () => {
      queryClient.setQueryData(queryKeys.notifications.unread(), 0);
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all() });
    },
  });
}

/** Sends a note about a record to colleagues. */
export function useSendNotification() {
  const dp = useDataProvider();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: { entity: string; recordId: number; userIds: number[]; message: string }) =>
      dp.sendNotification(note),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all() }),
  });
}

/**
 * Keeps the notification queries current from the live channel `notification`: the pushed
 * unread count replaces the bell's at once, and the lists are read again (a new one arrived,
 * or another tab read some).
 */
export function useNotificationsLive(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      enabled
        ? subscribeLive('notification', (body) => {
            if (typeof body.unread === 'number')
              queryClient.setQueryData(queryKeys.notifications.unread(), body.unread);
            void queryClient.invalidateQueries({
              queryKey: queryKeys.notifications.all(),
              predicate: (q) => q.queryKey[1] !== 'unread',
            });
          })
        : undefined,
    [enabled, queryClient],
  );
}
