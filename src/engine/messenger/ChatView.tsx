import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Input, Spinner, Textarea, mergeClasses } from '@fluentui/react-components';
import {
  ArrowForwardRegular,
  ArrowLeftRegular,
  ArrowReplyRegular,
  AttachRegular,
  CheckmarkRegular,
  DeleteRegular,
  DismissRegular,
  EditRegular,
  PeopleRegular,
  SearchRegular,
  SendRegular,
} from '@fluentui/react-icons';
import { useApi } from '../../client/react/context.tsx';
import { useChatMessages, useDataProvider, useSearchMessages } from '../../client/react/hooks.ts';
import { queryKeys } from '../../client/query-keys.ts';
import type { MessengerPage } from '../../client/data-provider.ts';
import { subscribeLive } from '../../client/live.ts';
import { PAGE, useStyles, type Message, type Open } from './shared.tsx';
import { Attachment, PendingFile } from './Attachment.tsx';
import { PhotoAvatar } from './photos.tsx';
import { ForwardDialog } from './ForwardDialog.tsx';
import { GroupSettingsDialog } from './GroupDialogs.tsx';
import { messageTime } from './time.ts';

/**
 * One open chat: messages newest at the bottom, older pages as one scrolls up, live changes
 * patched in, read marks; reply, edit, delete, forward; a search over the chat's messages
 * (the REST `search`, served by the server's trigram index) shown in place of the history.
 */
export function ChatView({
  open,
  me,
  connected,
  reconnects,
  onBack,
}: {
  open: Open;
  me: number | null;
  connected: boolean;
  reconnects: number;
  onBack: () => void;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const dp = useDataProvider();
  const { reportError, notifySuccess } = useApi();
  const queryClient = useQueryClient();
  const key = useMemo(() => queryKeys.messenger.messages(open.kind, open.id), [open]);
  const messages = useChatMessages(open, PAGE);
  const [searching, setSearching] = useState(false);
  const [term, setTerm] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(term.trim()), 300);
    return () => clearTimeout(timer);
  }, [term]);
  const found = useSearchMessages(open, debounced, searching && debounced.length > 0);
  const showFound = searching && debounced.length > 0;
  const [forwarding, setForwarding] = useState<Message | undefined>();
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  // pages[0] is the newest page; older pages follow. Shown oldest first.
  const shown = useMemo(() => [...(messages.data?.pages ?? [])].reverse().flatMap((p) => p.list), [messages.data]);

  const markRead = useCallback(() => {
    void dp
      .markRead(open)
      .then(() => queryClient.invalidateQueries({ queryKey: queryKeys.messenger.all() }))
      .catch(() => undefined);
  }, [dp, open, queryClient]);
  useEffect(() => markRead(), [markRead]);

  // After the socket came back, the loaded pages are read again (the newest first, each older
  // one from the page before it) and what arrived meanwhile is marked read, as live messages are.
  const refetchMessages = messages.refetch;
  const seenReconnects = useRef(reconnects);
  useEffect(() => {
    if (reconnects === seenReconnects.current) return;
    seenReconnects.current = reconnects;
    void refetchMessages().then(markRead);
  }, [reconnects, refetchMessages, markRead]);

  // Live changes of this chat, patched into the loaded pages.
  useEffect(() => {
    const mine = (b: Record<string, unknown>) =>
      open.kind === 'chat' ? b.chatId === open.id : b.groupChatId === open.id;
    const patch = (fn: (list: Message[], i: number) => Message[]) =>
      queryClient.setQueryData<InfiniteData<MessengerPage<Message>, number | undefined>>(
        key,
        (data) => data && { ...data, pages: data.pages.map((p, i) => ({ ...p, list: fn(p.list, i) })) },
      );
    const onMessage = (b: Record<string, unknown>) => {
      if (!mine(b)) return;
      const m = b as unknown as Message & { action: string };
      if (m.action === 'NEW') {
        patch((list, i) => (i === 0 && !list.some((x) => x.id === m.id) ? [...list, m] : list));
        if (m.ownerId !== me) markRead();
      } else if (m.action === 'EDIT')
        patch((list) => list.map((x) => (x.id === m.id ? { ...x, message: m.message, edited: true } : x)));
      else if (m.action === 'DELETE') patch((list) => list.filter((x) => x.id !== m.id));
    };
    const onRead = (b: Record<string, unknown>) => {
      if (!mine(b)) return;
      const ids = new Set(b.messageIds as number[]);
      patch((list) => list.map((x) => (ids.has(x.id) ? { ...x, isRead: 'READ' } : x)));
    };
    const offs = [
      subscribeLive(open.kind === 'chat' ? 'msg' : 'groupMsg', onMessage),
      subscribeLive('makeRead', onRead),
    ];
    return () => offs.forEach((off) => off());
  }, [key, me, open, queryClient, markRead]);

  // Keep to the bottom when new messages come and the reader is there; keep the place when older pages arrive.
  const lastHeight = useRef(0);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (stick.current) el.scrollTop = el.scrollHeight;
    else if (el.scrollHeight > lastHeight.current && el.scrollTop < 40)
      el.scrollTop += el.scrollHeight - lastHeight.current;
    lastHeight.current = el.scrollHeight;
  }, [shown]);
  const onScroll = () => {
    const el = scroller.current!;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (el.scrollTop < 60 && messages.hasNextPage && !messages.isFetchingNextPage) void messages.fetchNextPage();
  };

  const [settings, setSettings] = useState(false);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const [editing, setEditing] = useState<Message | undefined>();
  const [replyTo, setReplyTo] = useState<Message | undefined>();
  const fileInput = useRef<HTMLInputElement>(null);
  const send = useMutation({
    mutationFn: async () => {
      if (editing) return dp.editMessage(editing.id, text);
      return dp.sendMessage(open, { text, ownerId: me, replyTo: replyTo?.id, file });
    },
    onSuccess: () => {
      setText('');
      setFile(undefined);
      setEditing(undefined);
      setReplyTo(undefined);
      stick.current = true;
    },
    onError: reportError,
  });
  const remove = (m: Message) => void dp.deleteMessage(m.id).catch(reportError);

  const bubble = (m: Message) => {
    const own = m.ownerId === me;
    return (
      <div
        key={m.id}
        className={mergeClasses(s.bubble, own && s.mine)}
        data-message={m.id}
        data-own={own}
        data-read={m.isRead}
      >
        {!own && open.kind === 'group' && <div className={s.muted}>{m.ownerName}</div>}
        {m.forwardedFrom ? (
          <div className={s.muted} data-forwarded>
            {t('messenger.forwardedLabel')}
          </div>
        ) : null}
        {m.replyTo && <div className={s.quote}>{m.replyTo.message}</div>}
        {m.message && <div data-text>{m.message}</div>}
        {m.file && <Attachment file={m.file} />}
        <div className={s.meta}>
          {m.edited && <span data-edited>{t('messenger.edited')}</span>}
          <time dateTime={m.createdAt} data-time>
            {messageTime(m.createdAt)}
          </time>
          {own && (
            <span
              title={m.isRead === 'READ' ? t('messenger.read') : t('messenger.unread')}
              aria-label={m.isRead === 'READ' ? t('messenger.read') : t('messenger.unread')}
            >
              {m.isRead === 'READ' ? '✓✓' : <CheckmarkRegular />}
            </span>
          )}
          <Button
            size="small"
            appearance="transparent"
            icon={<ArrowForwardRegular />}
            aria-label={t('messenger.forward')}
            title={t('messenger.forward')}
            data-action="forward"
            onClick={() => setForwarding(m)}
          />
          <Button
            size="small"
            appearance="transparent"
            icon={<ArrowReplyRegular />}
            aria-label={t('messenger.reply')}
            title={t('messenger.reply')}
            onClick={() => {
              setReplyTo(m);
              setEditing(undefined);
            }}
          />
          {own && (
            <Button
              size="small"
              appearance="transparent"
              icon={<EditRegular />}
              aria-label={t('messenger.edit')}
              title={t('messenger.edit')}
              data-action="edit"
              onClick={() => {
                setEditing(m);
                setReplyTo(undefined);
                setText(m.message);
              }}
            />
          )}
          {own && (
            <Button
              size="small"
              appearance="transparent"
              icon={<DeleteRegular />}
              aria-label={t('messenger.delete')}
              title={t('messenger.delete')}
              data-action="delete"
              onClick={() => remove(m)}
            />
          )}
        </div>
      </div>
    );
  };

  return (
    <>
      <div className={s.head}>
        <Button
          appearance="subtle"
          icon={<ArrowLeftRegular />}
          aria-label={t('messenger.back')}
          title={t('messenger.back')}
          onClick={onBack}
          data-action="back"
        />
        <PhotoAvatar name={open.title} photo={open.photo} size={28} />
        <strong className={mergeClasses(s.grow, s.ellipsis)} data-chat-title>
          {open.title}
        </strong>
        <span className={s.muted} data-live-status>
          {connected ? t('messenger.online') : t('messenger.offline')}
        </span>
        <Button
          appearance="subtle"
          icon={<SearchRegular />}
          aria-label={t('messenger.searchInChat')}
          title={t('messenger.searchInChat')}
          aria-pressed={searching}
          data-action="search-chat"
          onClick={() => {
            setSearching((v) => !v);
            setTerm('');
          }}
        />
        {open.kind === 'group' && (
          <Button
            appearance="subtle"
            icon={<PeopleRegular />}
            aria-label={t('messenger.groupSettings')}
            title={t('messenger.groupSettings')}
            data-action="group-settings"
            onClick={() => setSettings(true)}
          />
        )}
      </div>
      {settings && open.kind === 'group' && (
        <GroupSettingsDialog groupChatId={open.id} me={me} onClose={() => setSettings(false)} onDeleted={onBack} />
      )}
      {forwarding && (
        <ForwardDialog
          message={forwarding}
          onClose={() => setForwarding(undefined)}
          onForwarded={() => {
            setForwarding(undefined);
            notifySuccess('messenger.forwarded');
          }}
        />
      )}
      {searching && (
        <div className={s.head}>
          <Input
            className={s.grow}
            autoFocus
            value={term}
            onChange={(_, d) => setTerm(d.value)}
            contentBefore={<SearchRegular />}
            placeholder={t('messenger.searchInChat')}
            aria-label={t('messenger.searchInChat')}
            data-input="chat-search"
          />
          {showFound && found.data && (
            <span className={s.muted} data-found={found.data.total}>
              {t('messenger.found', { count: found.data.total })}
            </span>
          )}
        </div>
      )}
      {showFound ? (
        <div className={s.messages} data-region="search-results">
          {found.isLoading && <Spinner size="tiny" />}
          {found.data && !found.data.list.length && <div className={s.empty}>{t('messenger.nothingFound')}</div>}
          {found.data?.list.map(bubble)}
        </div>
      ) : (
        <div className={s.messages} ref={scroller} onScroll={onScroll} data-region="messages">
          {messages.isFetchingNextPage && <Spinner size="tiny" />}
          {!messages.isLoading && !shown.length && <div className={s.empty}>{t('messenger.noMessages')}</div>}
          {shown.map(bubble)}
        </div>
      )}
      {(editing || replyTo || file) && (
        <div className={s.head}>
          <span className={mergeClasses(s.grow, s.ellipsis, s.muted)}>
            {editing ? t('messenger.editing') : replyTo ? t('messenger.replyingTo', { text: replyTo.message }) : ''}
            {file && <PendingFile file={file} />}
          </span>
          <Button
            size="small"
            appearance="subtle"
            icon={<DismissRegular />}
            aria-label={t('messenger.cancel')}
            onClick={() => {
              setEditing(undefined);
              setReplyTo(undefined);
              setFile(undefined);
              setText('');
            }}
          />
        </div>
      )}
      <form
        className={s.composer}
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim() || file) send.mutate();
        }}
      >
        <input ref={fileInput} type="file" hidden onChange={(e) => setFile(e.target.files?.[0])} data-input="file" />
        <Button
          appearance="subtle"
          icon={<AttachRegular />}
          aria-label={t('messenger.attach')}
          title={t('messenger.attach')}
          onClick={() => fileInput.current?.click()}
          disabled={Boolean(editing)}
        />
        <Textarea
          className={s.grow}
          resize="none"
          rows={1}
          value={text}
          onChange={(_, d) => setText(d.value)}
          placeholder={t('messenger.typeMessage')}
          aria-label={t('messenger.typeMessage')}
          data-input="message"
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              if (text.trim() || file) send.mutate();
            }
          }}
        />
        <Button
          type="submit"
          appearance="primary"
          icon={<SendRegular />}
          aria-label={t('messenger.send')}
          title={t('messenger.send')}
          disabled={send.isPending}
          data-action="send"
        />
      </form>
    </>
  );
}
