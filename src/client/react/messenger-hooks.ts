/**
 * Hooks of the messenger: its tabs' lists, contacts, group chats and members, forward targets
 * and a chat's messages (re-exported by hooks.ts, where screens import them).
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ChatRef, ChatRow, GroupRow, MessengerPage } from '../data-provider.ts';
import { queryKeys } from '../query-keys.ts';
import { useDataProvider } from './use-data-provider.ts';

/**
 * The rows of a messenger tab (100): chats, group chats or colleagues — typed as all shapes
 * at once, the tab says which fields a row has. A failed list shows as empty (spec §8).
 */
export function useMessengerList(tab: 'chats' | 'groups' | 'contacts', search: string) {
  const dp = useDataProvider();
  const get = tab === 'chats' ? dp.getChats : tab === 'groups' ? dp.getGroupChats : dp.getContacts;
  return useQuery({
    queryKey: queryKeys.messenger.list(tab, search),
    queryFn: () =>
      (get({ itemsPerPage: 100, search }) as Promise<MessengerPage<ChatRow & GroupRow>>).catch(() => ({
        list: [],
        total: 0,
      })),
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
  return useQuery({
    queryKey: queryKeys.messenger.group(id),
    queryFn: async () => (await dp.getGroupChats({ itemsPerPage: 200 })).list.find((g) => g.id === id),
  });
}

/** A group chat's members (200). */
export function useGetGroupMembers(id: number) {
  const dp = useDataProvider();
  return useQuery({
    queryKey: queryKeys.messenger.members(id),
    queryFn: () => dp.getGroupMembers(id, { itemsPerPage: 200 }),
  });
}

/** Where a message may be forwarded: the user's groups and colleagues matching `search` (50 each; a failure lists none). */
export function useForwardTargets(search: string) {
  const dp = useDataProvider();
  const query = { itemsPerPage: 50, search: search.trim() || undefined };
  const empty = { list: [], total: 0 };
  const groups = useQuery({
    queryKey: queryKeys.messenger.forwardGroups(search),
    queryFn: () => dp.getGroupChats(query).catch(() => empty),
  });
  const people = useQuery({
    queryKey: queryKeys.messenger.forwardPeople(search),
    queryFn: () => dp.getContacts(query).catch(() => empty),
  });
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
