import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  Avatar, Button, Checkbox, CounterBadge, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Input,
  Spinner, Tab, TabList, Textarea, makeStyles, mergeClasses, tokens,
} from '@fluentui/react-components';
import {
  AddRegular, ArrowLeftRegular, ArrowReplyRegular, AttachRegular, CheckmarkRegular, DeleteRegular, DismissRegular, DocumentPdfRegular,
  DocumentRegular, EditRegular, ImageRegular, PeopleRegular, SendRegular,
} from '@fluentui/react-icons';
import type { ScreenProps } from '../types.ts';
import { useApi } from '../../app/api/context.tsx';
import { getSetting } from '../../app/settings.ts';
import { onLiveStatus, subscribeLive } from '../../app/live.ts';

/**
 * The staff messenger (spec §2 messenger screen, §7 Messenger): contacts, direct chats and
 * group chats on the left; the open chat on the right with older pages loading as one
 * scrolls up, live new / edited / deleted messages, read marks, unread counters and
 * attachments. A subsystem screen: it names no entity; REST through the data provider, live
 * events through the app's one STOMP socket. Below 768 px one pane shows at a time.
 */
interface Message {
  id: number; chatId: number | null; groupChatId: number | null; message: string; isRead: 'READ' | 'UNREAD'; edited: boolean;
  ownerId: number; ownerName: string; file: { id: string; name: string; mime: string; size: number } | null;
  replyTo: { id: number; message: string; ownerId: number } | null; createdAt: string;
}
interface Contact { employeeId: number; firstName: string; lastName: string; uploadPath: string | null; chatId: number | null }
interface ChatRow extends Contact { chatId: number; lastMessage: string | null; unreadCount: number }
interface GroupRow { id: number; name: string; photo: string | null; count: number; unreadCount: number; lastMessage: string | null; ownerId: number }
type Open = { kind: 'chat'; id: number; title: string } | { kind: 'group'; id: number; title: string };
type Page = { list: Message[]; total: number };

const PAGE = 30;
const useStyles = makeStyles({
  root: { display: 'flex', height: 'calc(100dvh - 96px)', minHeight: '420px', border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, overflow: 'hidden', backgroundColor: tokens.colorNeutralBackground1 },
  side: { width: '320px', flexShrink: 0, display: 'flex', flexDirection: 'column', borderRight: `1px solid ${tokens.colorNeutralStroke2}`, '@media (max-width: 767px)': { width: '100%', borderRight: 'none' } },
  main: { flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' },
  hidePhone: { '@media (max-width: 767px)': { display: 'none' } },
  list: { overflowY: 'auto', flexGrow: 1 },
  row: { display: 'flex', alignItems: 'center', gap: '10px', padding: '8px 12px', cursor: 'pointer', border: 'none', background: 'none', width: '100%', textAlign: 'left', color: 'inherit', ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover } },
  rowActive: { backgroundColor: tokens.colorBrandBackground2 },
  rowText: { minWidth: 0, flexGrow: 1, display: 'flex', flexDirection: 'column' },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  head: { display: 'flex', alignItems: 'center', gap: '8px', padding: '8px 12px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, minHeight: '48px' },
  messages: { flexGrow: 1, overflowY: 'auto', padding: '12px', display: 'flex', flexDirection: 'column', gap: '6px' },
  bubble: { maxWidth: 'min(80%, 560px)', padding: '6px 10px', borderRadius: '10px', backgroundColor: tokens.colorNeutralBackground3, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' },
  mine: { alignSelf: 'flex-end', backgroundColor: tokens.colorBrandBackground2 },
  meta: { display: 'flex', gap: '6px', alignItems: 'center', justifyContent: 'flex-end', fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3 },
  file: { display: 'flex', alignItems: 'center', gap: '6px', cursor: 'pointer', border: 'none', background: 'none', padding: 0, color: tokens.colorBrandForeground1, textAlign: 'left' },
  composer: { display: 'flex', alignItems: 'flex-end', gap: '6px', padding: '8px', borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
  grow: { flexGrow: 1, minWidth: 0 },
  quote: { borderLeft: `3px solid ${tokens.colorBrandStroke1}`, paddingLeft: '6px', fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground2, marginBottom: '4px' },
  empty: { margin: 'auto', color: tokens.colorNeutralForeground3, padding: '16px', textAlign: 'center' },
});

export const formatSize = (n: number): string => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} B`);
const fileIcon = (mime: string) => (mime.startsWith('image/') ? <ImageRegular /> : mime === 'application/pdf' ? <DocumentPdfRegular /> : <DocumentRegular />);
const nameOf = (c: { firstName: string; lastName: string }) => [c.lastName, c.firstName].filter(Boolean).join(' ');

export default function MessengerScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const { dataProvider: dp, reportError } = useApi();
  const queryClient = useQueryClient();
  const me = getSetting('userId');
  const [tab, setTab] = useState<'chats' | 'groups' | 'contacts'>('chats');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<Open | undefined>();
  const [connected, setConnected] = useState(false);
  useEffect(() => onLiveStatus(setConnected), []);

  const listPath = tab === 'chats' ? '/api/chat/list' : tab === 'groups' ? '/api/groupChat/list' : '/api/employee/get-by-chat';
  const lists = useQuery({
    queryKey: ['messenger', tab, search],
    queryFn: () => dp.send<{ list: Array<ChatRow & GroupRow>; total: number }>('POST', listPath, { body: { page: 0, itemsPerPage: 100 }, query: { search: search || undefined } })
      .catch(() => ({ list: [], total: 0 })), // spec §8: a failed list shows as empty
  });

  const openContact = async (c: Contact) => {
    try {
      const chatId = c.chatId ?? (await dp.send<{ chatId: number }>('POST', `/api/chat/create/${c.employeeId}`)).chatId;
      setOpen({ kind: 'chat', id: chatId, title: nameOf(c) });
    } catch (error) {
      reportError(error);
    }
  };

  // Live: lists and counters refresh; the open chat is patched in place (messages hook below).
  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: ['messenger'] });
    const offs = [subscribeLive('msg', refresh), subscribeLive('groupMsg', refresh), subscribeLive('unreadMessage', refresh)];
    return () => offs.forEach((off) => off());
  }, [queryClient]);

  const [newGroup, setNewGroup] = useState(false);
  const rows = lists.data?.list ?? [];
  return (
    <div className={s.root} data-screen={screen.id} data-live={connected ? 'connected' : 'offline'}>
      <aside className={mergeClasses(s.side, open && s.hidePhone)} aria-label={t('messenger.title')}>
        <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as typeof tab)} size="small">
          <Tab value="chats" data-tab="chats">{t('messenger.chats')}</Tab>
          <Tab value="groups" data-tab="groups">{t('messenger.groups')}</Tab>
          <Tab value="contacts" data-tab="contacts">{t('messenger.contacts')}</Tab>
        </TabList>
        <div style={{ display: 'flex', gap: 6, padding: 8 }}>
          <Input className={s.grow} value={search} onChange={(_, d) => setSearch(d.value)} placeholder={t('messenger.search')} aria-label={t('messenger.search')} />
          {tab === 'groups' && <Button icon={<AddRegular />} aria-label={t('messenger.newGroup')} title={t('messenger.newGroup')} data-action="new-group" onClick={() => setNewGroup(true)} />}
        </div>
        <div className={s.list} data-region="messenger-list">
          {lists.isLoading && <Spinner size="tiny" />}
          {rows.map((r) => {
            const isGroup = tab === 'groups';
            const key = isGroup ? `g${r.id}` : `u${r.employeeId}`;
            const active = open && (isGroup ? open.kind === 'group' && open.id === r.id : open.kind === 'chat' && open.id === r.chatId);
            const title = isGroup ? r.name : nameOf(r);
            return (
              <button key={key} type="button" className={mergeClasses(s.row, active && s.rowActive)} data-row={isGroup ? `group-${r.id}` : `user-${r.employeeId}`}
                onClick={() => (isGroup ? setOpen({ kind: 'group', id: r.id, title }) : tab === 'chats' ? setOpen({ kind: 'chat', id: r.chatId, title }) : void openContact(r))}>
                <Avatar name={title} size={32} />
                <span className={s.rowText}>
                  <span className={s.ellipsis}>{title}</span>
                  {(r.lastMessage || isGroup) && <span className={mergeClasses(s.ellipsis, s.muted)}>{isGroup ? `${t('messenger.members')}: ${r.count}${r.lastMessage ? ` · ${r.lastMessage}` : ''}` : r.lastMessage}</span>}
                </span>
                {r.unreadCount > 0 && <CounterBadge count={r.unreadCount} size="small" data-unread={r.unreadCount} />}
              </button>
            );
          })}
        </div>
      </aside>
      <section className={mergeClasses(s.main, !open && s.hidePhone)}>
        {open ? <ChatView key={`${open.kind}-${open.id}`} open={open} me={me} connected={connected} onBack={() => setOpen(undefined)} /> : <div className={s.empty}>{t('messenger.chooseChat')}</div>}
      </section>
      {newGroup && <NewGroupDialog onClose={() => setNewGroup(false)} onCreated={(g) => { setNewGroup(false); setTab('groups'); setOpen({ kind: 'group', id: g.id, title: g.name }); }} />}
    </div>
  );
}

function ChatView({ open, me, connected, onBack }: { open: Open; me: number | null; connected: boolean; onBack: () => void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const { dataProvider: dp, reportError } = useApi();
  const queryClient = useQueryClient();
  const key = useMemo(() => ['messenger-messages', open.kind, open.id] as const, [open]);
  const base = open.kind === 'chat' ? '/api/chat-message/get-by-chatId' : '/api/groupChat/get-by-chatId';
  const messages = useInfiniteQuery({
    queryKey: key,
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) => dp.send<Page>('POST', `${base}/${open.id}`, { body: { page: 0, itemsPerPage: PAGE, ...(pageParam ? { beforeId: pageParam } : {}) } }),
    getNextPageParam: (last) => (last.list.length < PAGE ? undefined : last.list[0]!.id),
  });
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  // pages[0] is the newest page; older pages follow. Shown oldest first.
  const shown = useMemo(() => [...(messages.data?.pages ?? [])].reverse().flatMap((p) => p.list), [messages.data]);

  const markRead = useCallback(() => {
    void dp.send('POST', '/api/chat-message/make-read', { body: open.kind === 'chat' ? { chatId: open.id } : { groupChatId: open.id } })
      .then(() => queryClient.invalidateQueries({ queryKey: ['messenger'] }))
      .catch(() => undefined);
  }, [dp, open, queryClient]);
  useEffect(() => markRead(), [markRead]);

  // Live changes of this chat, patched into the loaded pages.
  useEffect(() => {
    const mine = (b: Record<string, unknown>) => (open.kind === 'chat' ? b.chatId === open.id : b.groupChatId === open.id);
    const patch = (fn: (list: Message[], i: number) => Message[]) => queryClient.setQueryData<InfiniteData<Page, number | undefined>>(key, (data) =>
      data && { ...data, pages: data.pages.map((p, i) => ({ ...p, list: fn(p.list, i) })) });
    const onMessage = (b: Record<string, unknown>) => {
      if (!mine(b)) return;
      const m = b as unknown as Message & { action: string };
      if (m.action === 'NEW') {
        patch((list, i) => (i === 0 && !list.some((x) => x.id === m.id) ? [...list, m] : list));
        if (m.ownerId !== me) markRead();
      } else if (m.action === 'EDIT') patch((list) => list.map((x) => (x.id === m.id ? { ...x, message: m.message, edited: true } : x)));
      else if (m.action === 'DELETE') patch((list) => list.filter((x) => x.id !== m.id));
    };
    const onRead = (b: Record<string, unknown>) => {
      if (!mine(b)) return;
      const ids = new Set(b.messageIds as number[]);
      patch((list) => list.map((x) => (ids.has(x.id) ? { ...x, isRead: 'READ' } : x)));
    };
    const offs = [subscribeLive(open.kind === 'chat' ? 'msg' : 'groupMsg', onMessage), subscribeLive('makeRead', onRead)];
    return () => offs.forEach((off) => off());
  }, [key, me, open, queryClient, markRead]);

  // Keep to the bottom when new messages come and the reader is there; keep the place when older pages arrive.
  const lastHeight = useRef(0);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (stick.current) el.scrollTop = el.scrollHeight;
    else if (el.scrollHeight > lastHeight.current && el.scrollTop < 40) el.scrollTop += el.scrollHeight - lastHeight.current;
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
      if (editing) return dp.send('POST', '/api/chat-message/edit', { body: { id: editing.id, message: text } });
      const form = new FormData();
      form.set(open.kind === 'chat' ? 'chatId' : 'groupChatId', String(open.id));
      form.set('message', text);
      if (me) form.set('ownerId', String(me));
      if (replyTo) form.set('id', String(replyTo.id));
      if (file) form.set('file', file);
      const path = replyTo ? '/api/chat-message/reply-message' : open.kind === 'chat' ? '/api/chat-message/sendMessage' : '/api/groupChat/chat-message/sendMessage';
      return dp.send('POST', path, { form });
    },
    onSuccess: () => { setText(''); setFile(undefined); setEditing(undefined); setReplyTo(undefined); stick.current = true; },
    onError: reportError,
  });
  const remove = (m: Message) => void dp.send('DELETE', `/api/chat-message/delete/${m.id}`).catch(reportError);
  const download = async (f: NonNullable<Message['file']>) => {
    const res = await fetch(`/api/chat-message/file/${f.id}`, { headers: { authorization: `Bearer ${getSetting('accessToken') ?? ''}` } });
    if (!res.ok) return;
    const url = URL.createObjectURL(await res.blob());
    const a = Object.assign(document.createElement('a'), { href: url, download: f.name });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <>
      <div className={s.head}>
        <Button appearance="subtle" icon={<ArrowLeftRegular />} aria-label={t('messenger.back')} title={t('messenger.back')} onClick={onBack} data-action="back" />
        <Avatar name={open.title} size={28} />
        <strong className={mergeClasses(s.grow, s.ellipsis)} data-chat-title>{open.title}</strong>
        <span className={s.muted} data-live-status>{connected ? t('messenger.online') : t('messenger.offline')}</span>
        {open.kind === 'group' && <Button appearance="subtle" icon={<PeopleRegular />} aria-label={t('messenger.groupSettings')} title={t('messenger.groupSettings')} data-action="group-settings" onClick={() => setSettings(true)} />}
      </div>
      {settings && open.kind === 'group' && <GroupSettingsDialog groupChatId={open.id} me={me} onClose={() => setSettings(false)} onDeleted={onBack} />}
      <div className={s.messages} ref={scroller} onScroll={onScroll} data-region="messages">
        {messages.isFetchingNextPage && <Spinner size="tiny" />}
        {!messages.isLoading && !shown.length && <div className={s.empty}>{t('messenger.noMessages')}</div>}
        {shown.map((m) => {
          const own = m.ownerId === me;
          return (
            <div key={m.id} className={mergeClasses(s.bubble, own && s.mine)} data-message={m.id} data-own={own} data-read={m.isRead}>
              {!own && open.kind === 'group' && <div className={s.muted}>{m.ownerName}</div>}
              {m.replyTo && <div className={s.quote}>{m.replyTo.message}</div>}
              {m.message && <div data-text>{m.message}</div>}
              {m.file && (
                <button type="button" className={s.file} onClick={() => void download(m.file!)} data-file={m.file.name}>
                  {fileIcon(m.file.mime)}<span className={s.ellipsis}>{m.file.name}</span><span className={s.muted}>{formatSize(m.file.size)}</span>
                </button>
              )}
              <div className={s.meta}>
                {m.edited && <span data-edited>{t('messenger.edited')}</span>}
                <span>{new Date(m.createdAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</span>
                {own && <span title={m.isRead === 'READ' ? t('messenger.read') : t('messenger.unread')} aria-label={m.isRead === 'READ' ? t('messenger.read') : t('messenger.unread')}>{m.isRead === 'READ' ? '✓✓' : <CheckmarkRegular />}</span>}
                <Button size="small" appearance="transparent" icon={<ArrowReplyRegular />} aria-label={t('messenger.reply')} title={t('messenger.reply')} onClick={() => { setReplyTo(m); setEditing(undefined); }} />
                {own && <Button size="small" appearance="transparent" icon={<EditRegular />} aria-label={t('messenger.edit')} title={t('messenger.edit')} data-action="edit" onClick={() => { setEditing(m); setReplyTo(undefined); setText(m.message); }} />}
                {own && <Button size="small" appearance="transparent" icon={<DeleteRegular />} aria-label={t('messenger.delete')} title={t('messenger.delete')} data-action="delete" onClick={() => remove(m)} />}
              </div>
            </div>
          );
        })}
      </div>
      {(editing || replyTo || file) && (
        <div className={s.head}>
          <span className={mergeClasses(s.grow, s.ellipsis, s.muted)}>
            {editing ? t('messenger.editing') : replyTo ? t('messenger.replyingTo', { text: replyTo.message }) : ''}
            {file && <> {fileIcon(file.type)} {file.name} ({formatSize(file.size)})</>}
          </span>
          <Button size="small" appearance="subtle" icon={<DismissRegular />} aria-label={t('messenger.cancel')} onClick={() => { setEditing(undefined); setReplyTo(undefined); setFile(undefined); setText(''); }} />
        </div>
      )}
      <form className={s.composer} onSubmit={(e) => { e.preventDefault(); if (text.trim() || file) send.mutate(); }}>
        <input ref={fileInput} type="file" hidden onChange={(e) => setFile(e.target.files?.[0])} data-input="file" />
        <Button appearance="subtle" icon={<AttachRegular />} aria-label={t('messenger.attach')} title={t('messenger.attach')} onClick={() => fileInput.current?.click()} disabled={Boolean(editing)} />
        <Textarea className={s.grow} resize="none" rows={1} value={text} onChange={(_, d) => setText(d.value)} placeholder={t('messenger.typeMessage')} aria-label={t('messenger.typeMessage')} data-input="message"
          onKeyDown={(e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); if (text.trim() || file) send.mutate(); } }} />
        <Button type="submit" appearance="primary" icon={<SendRegular />} aria-label={t('messenger.send')} title={t('messenger.send')} disabled={send.isPending} data-action="send" />
      </form>
    </>
  );
}

function NewGroupDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (g: GroupRow) => void }) {
  const { t } = useTranslation();
  const { dataProvider: dp, reportError } = useApi();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const contacts = useQuery({ queryKey: ['messenger', 'contacts-all'], queryFn: () => dp.send<{ list: Contact[] }>('POST', '/api/employee/get-by-chat', { body: { page: 0, itemsPerPage: 200 } }) });
  const create = useMutation({
    mutationFn: () => dp.send<GroupRow>('POST', '/api/groupChat/create', { body: { name, memberIds: [...chosen] } }),
    onSuccess: onCreated,
    onError: reportError,
  });
  const rows: ReactNode[] = (contacts.data?.list ?? []).map((c) => (
    <Checkbox key={c.employeeId} label={nameOf(c)} checked={chosen.has(c.employeeId)} data-member={c.employeeId}
      onChange={(_, d) => setChosen((prev) => { const next = new Set(prev); if (d.checked) next.add(c.employeeId); else next.delete(c.employeeId); return next; })} />
  ));
  return (
    <Dialog open onOpenChange={(_, d) => { if (!d.open) onClose(); }}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('messenger.newGroup')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
            <Input value={name} onChange={(_, d) => setName(d.value)} placeholder={t('messenger.groupName')} aria-label={t('messenger.groupName')} data-input="group-name" />
            <strong>{t('messenger.members')}</strong>
            <div style={{ maxHeight: 280, overflowY: 'auto', display: 'flex', flexDirection: 'column' }}>{rows}</div>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('messenger.cancel')}</Button>
            <Button appearance="primary" disabled={!name.trim() || create.isPending} onClick={() => create.mutate()} data-action="create-group">{t('messenger.create')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** A group's name, photo and members: everyone sees them; its creator changes them or deletes the group. */
function GroupSettingsDialog({ groupChatId, me, onClose, onDeleted }: { groupChatId: number; me: number | null; onClose: () => void; onDeleted: () => void }) {
  const { t } = useTranslation();
  const { dataProvider: dp, reportError } = useApi();
  const queryClient = useQueryClient();
  const group = useQuery({
    queryKey: ['messenger', 'group', groupChatId],
    queryFn: async () => (await dp.send<{ list: GroupRow[] }>('POST', '/api/groupChat/list', { body: { page: 0, itemsPerPage: 200 } })).list.find((g) => g.id === groupChatId),
  });
  const members = useQuery({ queryKey: ['messenger', 'members', groupChatId], queryFn: () => dp.send<{ list: Contact[] }>('POST', `/api/groupChat/members/${groupChatId}`, { body: { page: 0, itemsPerPage: 200 } }) });
  const contacts = useQuery({ queryKey: ['messenger', 'contacts-all'], queryFn: () => dp.send<{ list: Contact[] }>('POST', '/api/employee/get-by-chat', { body: { page: 0, itemsPerPage: 200 } }) });
  const owner = group.data?.ownerId === me;
  const [name, setName] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['messenger'] });
  const act = (fn: () => Promise<unknown>) => () => void fn().then(refresh).catch(reportError);
  const inGroup = new Set((members.data?.list ?? []).map((m) => m.employeeId));
  const photoInput = useRef<HTMLInputElement>(null);
  return (
    <Dialog open onOpenChange={(_, d) => { if (!d.open) onClose(); }}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('messenger.groupSettings')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 8 }} data-region="group-settings">
            <div style={{ display: 'flex', gap: 6 }}>
              <Input style={{ flexGrow: 1, minWidth: 0 }} value={name ?? group.data?.name ?? ''} disabled={!owner} onChange={(_, d) => setName(d.value)} aria-label={t('messenger.groupName')} data-input="group-name" />
              {owner && <Button disabled={!name?.trim()} onClick={act(() => dp.send('POST', '/api/groupChat/edit', { body: { id: groupChatId, name } }))} data-action="rename-group">{t('messenger.save')}</Button>}
            </div>
            {owner && (
              <>
                <input ref={photoInput} type="file" accept="image/*" hidden onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (!f) return;
                  const form = new FormData();
                  form.set('groupChatId', String(groupChatId));
                  form.set('file', f);
                  act(() => dp.send('POST', '/api/groupChat/uploadPhoto', { form }))();
                }} />
                <Button icon={<ImageRegular />} onClick={() => photoInput.current?.click()}>{t('messenger.photo')}</Button>
              </>
            )}
            <strong>{t('messenger.members')} ({members.data?.list.length ?? 0})</strong>
            <div style={{ maxHeight: 240, overflowY: 'auto', display: 'flex', flexDirection: 'column' }}>
              {(members.data?.list ?? []).map((m) => (
                <div key={m.employeeId} style={{ display: 'flex', alignItems: 'center', gap: 6 }} data-member={m.employeeId}>
                  <span style={{ flexGrow: 1 }}>{nameOf(m)}</span>
                  {owner && m.employeeId !== me && <Button size="small" appearance="subtle" icon={<DismissRegular />} aria-label={t('messenger.removeMember')} title={t('messenger.removeMember')}
                    onClick={act(() => dp.send('POST', `/api/groupChat/delete-members/${groupChatId}`, { body: { memberIds: [m.employeeId] } }))} />}
                </div>
              ))}
              {owner && (contacts.data?.list ?? []).filter((c) => !inGroup.has(c.employeeId)).map((c) => (
                <div key={c.employeeId} style={{ display: 'flex', alignItems: 'center', gap: 6 }} data-candidate={c.employeeId}>
                  <span style={{ flexGrow: 1, color: tokens.colorNeutralForeground3 }}>{nameOf(c)}</span>
                  <Button size="small" appearance="subtle" icon={<AddRegular />} aria-label={t('messenger.addMember')} title={t('messenger.addMember')}
                    onClick={act(() => dp.send('POST', `/api/groupChat/add-members/${groupChatId}`, { body: { memberIds: [c.employeeId] } }))} />
                </div>
              ))}
            </div>
          </DialogContent>
          <DialogActions>
            {owner && <Button icon={<DeleteRegular />} data-action="delete-group" onClick={() => void dp.send('POST', '/api/groupChat/delete', { body: { id: groupChatId } }).then(() => { void refresh(); onClose(); onDeleted(); }).catch(reportError)}>{t('messenger.deleteGroup')}</Button>}
            <Button appearance="primary" onClick={onClose}>{t('messenger.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
