/**
 * The data provider's methods for record comments (manifest `comments`): a record's thread,
 * a new comment or answer with files, one's own edits and deletions, a file's URL.
 */
import type { HttpClient } from '../http.ts';
import { apiBase } from './records.ts';

/** A file attached to a comment. */
export interface CommentFile {
  id: string;
  name: string;
  mime: string;
  size: number;
}

/** One comment as the API returns it; a thread's first comment carries its answers. */
export interface RecordComment {
  id: number;
  parentId: number | null;
  authorId: string;
  authorName: string;
  /** Plain text, never HTML; empty for a deleted comment. */
  text: string;
  createdAt: string;
  editedAt: string | null;
  deleted: boolean;
  /** The caller wrote it (and may edit or delete it). */
  mine: boolean;
  files: CommentFile[];
  replies?: RecordComment[];
}

/** A new comment: its text, the comment it answers, its files. */
export interface NewComment {
  text: string;
  parentId?: number | undefined;
  files?: File[];
}

export interface CommentMethods {
  /** A record's comment threads, oldest first. @example await dp.getComments('project', 7) */
  getComments(entity: string, id: number): Promise<RecordComment[]>;
  /** Adds a comment (multipart, with its files). */
  createComment(entity: string, id: number, comment: NewComment): Promise<RecordComment>;
  updateComment(entity: string, commentId: number, text: string): Promise<RecordComment>;
  deleteComment(entity: string, commentId: number): Promise<{ id: number }>;
  /** The download URL of a comment's file (fetched with the session: useDownloadClick). */
  commentFileUrl(entity: string, fileId: string): string;
}

/** Creates the comment methods over an HTTP client. */
export function createCommentMethods(http: HttpClient): CommentMethods {
  const base = (entity: string) => `${apiBase(entity)}/comments`;
  return {
    getComments: async (entity, id) =>
      (await http.request<{ list: RecordComment[] }>('GET', `${base(entity)}/list/${id}`)).list,
    createComment: (entity, id, { text, parentId, files = [] }) => {
      const form = new FormData();
      form.append('text', text);
      if (parentId !== undefined) form.append('parentId', String(parentId));
      for (const f of files) form.append('files', f, f.name);
      return http.request('POST', `${base(entity)}/create/${id}`, { form });
    },
    updateComment: (entity, commentId, text) =>
      http.request('PUT', `${base(entity)}/update/${commentId}`, { body: { text } }),
    deleteComment: (entity, commentId) => http.request('DELETE', `${base(entity)}/delete/${commentId}`),
    commentFileUrl: (entity, fileId) => http.url(`${base(entity)}/file/${fileId}`),
  };
}
