import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, CounterBadge, Input, Spinner, mergeClasses } from '@fluentui/react-components';
import { Tab, TabList } from '../common/TabList.tsx';
import { AddRegular } from '@fluentui/react-icons';
import type { ScreenProps } from '../types.ts';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider, useMessengerList } from '../../client/react/hooks.ts';
import { queryKeys } from '../../client/query-keys.ts';
import { getSetting } from '../../client/settings.ts';
import { onLiveStatus, subscribeLive } from '../../client/live.ts';
import { nameOf, useStyles, type Contact, type Open } from './shared.tsx';
import { PhotoAvatar } from './photos.tsx';
import { ChatView } from './ChatView.tsx';
import { NewGroupDialog } from './GroupDialogs.tsx';

/** Out of sight but read by screen readers (the usual clip pattern). */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/**
 * The staff messenger (spec §2 messenger screen, §7 Messenger): contacts, direct chats and
 * group chats on the left; the open chat on the right with older pages loading as one
 * scrolls up, live new / edited / deleted messages, read marks, unread counters and
 * attachments. A subsystem screen: it names no entity; REST through the data provider, live
 * events through the app's one STOMP socket. Below 768 px one pane shows at a time.
 */
export default function MessengerScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const dp = useDataProvider();
  const { reportError } = useApi();
  const queryClient = useQueryClient();
  const me = getSetting('userId');
  const [tab, setTab] = useState<'chats' | 'groups' | 'contacts'>('chats');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<Open | undefined>();
  const [connected, setConnected] = useState(false);
  // Counts the socket's returns after a drop seen here: the open chat and the lists are read
  // again then. The replay brings what this socket missed, but not what another tab of the
  // same user acknowledged meanwhile, nor what the server swept.
  const [reconnects, setReconnects] = useState(0);
  useEffect(() => {
    let wasUp = false;
    let dropped = false;
    return onLiveStatus((up) => {
      setConnected(up);
      if (!up) {
        dropped = wasUp;
        return;
      }
      if (dropped) {
        setReconnects((n) => n + 1);
        void queryClient.invalidateQueries({ queryKey: queryKeys.messenger.all() });
      }
      wasUp = true;
      dropped = false;
    });
  }, [queryClient]);

  const lists = useMessengerList(tab, search);

  const openContact = async (c: Contact) => {
    try {
      const chatId = c.chatId ?? (await dp.openChat(c.employeeId)).chatId;
      setOpen({ kind: 'chat', id: chatId, title: nameOf(c), photo: c.uploadPath });
    } catch (error) {
      reportError(error);
    }
  };

  // Live: lists and counters refresh; the open chat is patched in place (messages hook below).
  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.messenger.all() });
    const offs = [
      subscribeLive('msg', refresh),
      subscribeLive('groupMsg', refresh),
      subscribeLive('unreadMessage', refresh),
    ];
    return () => offs.forEach((off) => off());
  }, [queryClient]);

  const [newGroup, setNewGroup] = useState(false);
  const rows = lists.data?.list ?? [];
  return (
    <div className={s.root} data-screen={screen.id} data-live={connected ? 'connected' : 'offline'}>
      {/* The page's one h1, for screen readers and the outline: the two panes have no room for a visible title. */}
      <h1 style={VISUALLY_HIDDEN}>{t(screen.titleKey)}</h1>
      <aside className={mergeClasses(s.side, open && s.hidePhone)} aria-label={t('messenger.title')}>
        <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as typeof tab)} size="small">
          <Tab value="chats" data-tab="chats">
            {t('messenger.chats')}
          </Tab>
          <Tab value="groups" data-tab="groups">
            {t('messenger.groups')}
          </Tab>
          <Tab value="contacts" data-tab="contacts">
            {t('messenger.contacts')}
          </Tab>
        </TabList>
        <div style={{ display: 'flex', gap: 6, padding: 8 }}>
          <Input
            className={s.grow}
            value={search}
            onChange={(_, d) => setSearch(d.value)}
            placeholder={t('messenger.search')}
            aria-label={t('messenger.search')}
          />
          {tab === 'groups' && (
            <Button
              icon={<AddRegular />}
              aria-label={t('messenger.newGroup')}
              title={t('messenger.newGroup')}
              data-action="new-group"
              onClick={() => setNewGroup(true)}
            />
          )}
        </div>
        <div className={s.list} data-region="messenger-list">
          {lists.isLoading && <Spinner size="tiny" />}
          {rows.map((r) => {
            const isGroup = tab === 'groups';
            const key = isGroup ? `g${r.id}` : `u${r.employeeId}`;
            const active =
              open &&
              (isGroup ? open.kind === 'group' && open.id === r.id : open.kind === 'chat' && open.id === r.chatId);
            const title = isGroup ? r.name : nameOf(r);
            return (
              <button
                key={key}
                type="button"
                className={mergeClasses(s.row, active && s.rowActive)}
                data-row={isGroup ? `group-${r.id}` : `user-${r.employeeId}`}
                onClick={() =>
                  isGroup
                    ? setOpen({ kind: 'group', id: r.id, title, photo: r.photo })
                    : tab === 'chats'
                      ? setOpen({ kind: 'chat', id: r.chatId, title, photo: r.uploadPath })
                      : void openContact(r)
                }
              >
                <PhotoAvatar name={title} photo={isGroup ? r.photo : r.uploadPath} />
                <span className={s.rowText}>
                  <span className={s.ellipsis}>{title}</span>
                  {(r.lastMessage || isGroup) && (
                    <span className={mergeClasses(s.ellipsis, s.muted)}>
                      {isGroup
                        ? `${t('messenger.members')}: ${r.count}${r.lastMessage ? ` · ${r.lastMessage}` : ''}`
                        : r.lastMessage}
                    </span>
                  )}
                </span>
                {r.unreadCount > 0 && <CounterBadge count={r.unreadCount} size="small" data-unread={r.unreadCount} />}
              </button>
            );
          })}
        </div>
      </aside>
      <section className={mergeClasses(s.main, !open && s.hidePhone)}>
        {open ? (
          <ChatView
            key={`${open.kind}-${open.id}`}
            open={open}
            me={me}
            connected={connected}
            reconnects={reconnects}
            onBack={() => setOpen(undefined)}
          />
        ) : (
          <div className={s.empty}>{t('messenger.chooseChat')}</div>
        )}
      </section>
      {newGroup && (
        <NewGroupDialog
          onClose={() => setNewGroup(false)}
          onCreated={(g) => {
            setNewGroup(false);
            setTab('groups');
            setOpen({ kind: 'group', id: g.id, title: g.name, photo: g.photo });
          }}
        />
      )}
    </div>
  );
}
