/**
 * The hooks of record comments (manifest `comments`): the thread of a record, and the writes
 * that change it — each refreshes the thread; a failure is the caller's to show.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NewComment } from '../data-provider.ts';
import { queryKeys } from '../query-keys.ts';
import { useDataProvider } from './use-data-provider.ts';

/** A record's comment threads. */
export function useGetComments(entity: string, id: number) {
  const dp = useDataProvider();
  return useQuery({ queryKey: queryKeys.entity.comments(entity, id), queryFn: () => dp.getComments(entity, id) });
}

/** Adds, edits and deletes comments of one record; each refreshes its thread. */
export function useCommentWrites(entity: string, id: number) {
  const dp = useDataProvider();
  const client = useQueryClient();
  const onSuccess = () => void client.invalidateQueries({ queryKey: queryKeys.entity.comments(entity, id) });
  return {
    create: useMutation({ mutationFn: (c: NewComment) => dp.createComment(entity, id, c), onSuccess }),
    update: useMutation({
      mutationFn: ({ commentId, text }: { commentId: number; text: string }) =>
        dp.updateComment(entity, commentId, text),
      onSuccess,
    }),
    remove: useMutation({ mutationFn: (commentId: number) => dp.deleteComment(entity, commentId), onSuccess }),
  };
}
