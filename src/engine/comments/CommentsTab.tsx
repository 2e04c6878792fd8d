import { Body1, Button, Caption1, Link, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { ArrowReplyRegular, DeleteRegular, EditRegular } from '@fluentui/react-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecordComment } from '../../client/data-provider.ts';
import { HttpError } from '../../client/http.ts';
import { useApi } from '../../client/react/context.tsx';
import { useCommentWrites, useGetComments } from '../../client/react/hooks.ts';
import { useDataProvider } from '../../client/react/use-data-provider.ts';
import type { EntityManifest } from '../../generated/meta.ts';
import { formatDateTime } from '../../shared/format.ts';
import { FileTypeIcon } from '../common/FileTypeIcon.tsx';
import { useConfirm } from '../common/useConfirm.tsx';
import { useDownloadClick } from '../common/useDownload.ts';
import { useFileSize } from '../common/useFileSize.ts';
import { fileIconKind } from '../form/files.ts';
import { CommentComposer, type ComposerFiles, type ComposerInput } from './CommentComposer.tsx';

/** The longest comment when the manifest names no `comments.maxLength` (the server's default). */
const DEFAULT_LENGTH = 4000;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '860px', minWidth: 0 },
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
  },
  replies: {
    listStyleType: 'none',
    margin: `${tokens.spacingVerticalS} 0 0`,
    // Answers step in; on a phone by little, so their text keeps its width.
    padding: `0 0 0 clamp(12px, 4vw, 32px)`,
    borderLeft: `2px solid ${tokens.colorNeutralStroke2}`,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  comment: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0 },
  head: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalS, alignItems: 'baseline' },
  author: { fontWeight: tokens.fontWeightSemibold },
  quiet: { color: tokens.colorNeutralForeground3 },
  // Plain text as written: its line breaks kept, long words broken rather than overflowing a phone.
  text: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: 0 },
  deleted: { fontStyle: 'italic', color: tokens.colorNeutralForeground3 },
  files: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  file: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    minWidth: 0,
    overflowWrap: 'anywhere',
  },
  icon: { fontSize: '20px', flexShrink: 0, color: tokens.colorBrandForeground1 },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
});

/** The text of a 400's `/text` problem, else undefined (other failures are reported as toasts). */
const textProblem = (error: unknown): string | undefined =>
  error instanceof HttpError ? error.fieldErrors?.['/text'] : undefined;

/**
 * The Comments tab of a record page (manifest `comments`): the threads, oldest first, each
 * comment with its author, date (Tashkent) and files; answers stepped in below their comment;
 * one's own comments editable and deletable; a box to write a new one with files.
 */
export function CommentsTab({ entity, id, manifest }: { entity: string; id: number; manifest: EntityManifest }) {
  const s = useStyles();
  const { t } = useTranslation();
  const { reportError } = useApi();
  const threads = useGetComments(entity, id);
  const writes = useCommentWrites(entity, id);
  const { confirm, dialog } = useConfirm();
  const [error, setError] = useState<string>();
  const options = manifest.comments!;
  const maxLength = options.maxLength ?? DEFAULT_LENGTH;

  /** Runs a write; a text problem shows on its box, anything else as a toast. True when done. */
  const run = async (write: () => Promise<unknown>, onTextProblem: (m: string | undefined) => void) => {
    try {
      await write();
      onTextProblem(undefined);
      return true;
    } catch (e) {
      const problem = textProblem(e);
      onTextProblem(problem);
      if (!problem) reportError(e);
      return false;
    }
  };
  const create = (input: ComposerInput, parentId?: number) =>
    run(() => writes.create.mutateAsync({ text: input.text, files: input.files, parentId }), setError);
  const remove = async (comment: RecordComment) => {
    const ok = await confirm({
      key: 'comment-delete',
      title: t('comments.deleteTitle'),
      message: t('comments.deleteMessage'),
      confirmLabel: t('comments.delete'),
    });
    if (ok)
      await run(
        () => writes.remove.mutateAsync(comment.id),
        () => undefined,
      );
  };

  if (!threads.data)
    return threads.error ? (
      <Body1 role="alert">
        {t('comments.loadFailed')}{' '}
        <Button size="small" onClick={() => void threads.refetch()}>
          {t('comments.retry')}
        </Button>
      </Body1>
    ) : (
      <Spinner size="small" label={t('comments.loading')} />
    );

  const item = (comment: RecordComment, thread: RecordComment) => (
    <CommentItem
      key={comment.id}
      entity={entity}
      comment={comment}
      maxLength={maxLength}
      busy={writes.update.isPending || writes.create.isPending}
      onEdit={(text, onProblem) => run(() => writes.update.mutateAsync({ commentId: comment.id, text }), onProblem)}
      onDelete={() => void remove(comment)}
      reply={
        options.replies
          ? {
              files: options.files,
              onReply: (input, onProblem) =>
                run(() => writes.create.mutateAsync({ ...input, parentId: thread.id }), onProblem),
            }
          : undefined
      }
    >
      {comment === thread && (comment.replies?.length ?? 0) > 0 && (
        <ul className={s.replies} aria-label={t('comments.replies')}>
          {comment.replies!.map((r) => item(r, thread))}
        </ul>
      )}
    </CommentItem>
  );

  return (
    <section className={s.root} data-region="comments" aria-label={t('comments.tab')}>
      {threads.data.length === 0 ? (
        <Body1 data-region="no-comments">{t('comments.empty')}</Body1>
      ) : (
        <ul className={s.list}>{threads.data.map((c) => item(c, c))}</ul>
      )}
      <CommentComposer
        label={t('comments.new')}
        files={options.files}
        maxLength={maxLength}
        busy={writes.create.isPending}
        error={error}
        submitLabel={t('comments.send')}
        onSubmit={(input) => create(input)}
      />
      {dialog}
    </section>
  );
}

/** One comment: its head (author, date, "edited"), its text or "deleted", files, and what its author may do. */
function CommentItem({
  entity,
  comment,
  maxLength,
  busy,
  onEdit,
  onDelete,
  reply,
  children,
}: {
  entity: string;
  comment: RecordComment;
  maxLength: number;
  busy: boolean;
  onEdit(text: string, onProblem: (m: string | undefined) => void): Promise<boolean>;
  onDelete(): void;
  reply?:
    | {
        files?: ComposerFiles | undefined;
        onReply(input: ComposerInput, onProblem: (m: string | undefined) => void): Promise<boolean>;
      }
    | undefined;
  children?: ReactNode;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const dp = useDataProvider();
  const onDownload = useDownloadClick();
  const size = useFileSize();
  const [mode, setMode] = useState<'read' | 'edit' | 'reply'>('read');
  const [problem, setProblem] = useState<string>();
  const done = (ok: boolean) => {
    if (ok) setMode('read');
    return ok;
  };
  return (
    <li className={s.comment} data-comment={comment.id} data-deleted={comment.deleted || undefined}>
      <div className={s.head}>
        <span className={s.author}>{comment.deleted ? '—' : comment.authorName}</span>
        <Caption1 className={s.quiet}>
          <time dateTime={comment.createdAt}>{formatDateTime(comment.createdAt)}</time>
          {comment.editedAt && !comment.deleted && ` · ${t('comments.edited')}`}
        </Caption1>
      </div>
      {comment.deleted ? (
        <p className={`${s.text} ${s.deleted}`}>{t('comments.deleted')}</p>
      ) : mode === 'edit' ? (
        <CommentComposer
          label={t('comments.editLabel')}
          initial={comment.text}
          maxLength={maxLength}
          busy={busy}
          error={problem}
          submitLabel={t('comments.save')}
          onSubmit={async ({ text }) => done(await onEdit(text, setProblem))}
          onCancel={() => setMode('read')}
          autoFocus
        />
      ) : (
        <p className={s.text}>{comment.text}</p>
      )}
      {comment.files.length > 0 && (
        <ul className={s.files}>
          {comment.files.map((f) => {
            const kind = fileIconKind(f.name, f.mime);
            return (
              <li key={f.id} className={s.file} data-file={f.id}>
                <span className={s.icon} aria-hidden>
                  <FileTypeIcon kind={kind} />
                </span>
                <Link href={dp.commentFileUrl(entity, f.id)} download={f.name} onClick={onDownload}>
                  {f.name}
                </Link>
                <span className={s.quiet}>{size(f.size)}</span>
              </li>
            );
          })}
        </ul>
      )}
      {mode === 'read' && !comment.deleted && (reply || comment.mine) && (
        <div className={s.actions}>
          {reply && (
            <Button
              size="small"
              appearance="subtle"
              icon={<ArrowReplyRegular />}
              onClick={() => setMode('reply')}
              data-action="comment-reply"
            >
              {t('comments.reply')}
            </Button>
          )}
          {comment.mine && (
            <>
              <Button
                size="small"
                appearance="subtle"
                icon={<EditRegular />}
                onClick={() => setMode('edit')}
                data-action="comment-edit"
              >
                {t('comments.edit')}
              </Button>
              <Button
                size="small"
                appearance="subtle"
                icon={<DeleteRegular />}
                onClick={onDelete}
                data-action="comment-delete"
              >
                {t('comments.delete')}
              </Button>
            </>
          )}
        </div>
      )}
      {mode === 'reply' && reply && (
        <CommentComposer
          label={t('comments.replyTo', { name: comment.authorName })}
          files={reply.files}
          maxLength={maxLength}
          busy={busy}
          error={problem}
          submitLabel={t('comments.send')}
          onSubmit={async (input) => done(await reply.onReply(input, setProblem))}
          onCancel={() => setMode('read')}
          autoFocus
        />
      )}
      {children}
    </li>
  );
}
