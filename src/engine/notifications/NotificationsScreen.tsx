import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Button, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { Tab, TabList } from '../common/TabList.tsx';
import type { ScreenProps } from '../types.ts';
import type { NotificationBox, NotificationItem } from '../../client/data-provider.ts';
import {
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useNotifications,
  useNotificationsLive,
} from '../../client/react/hooks.ts';
import { useApi } from '../../client/react/context.tsx';
import { screens } from '../../definitions/client.ts';
import { Heading, Notice } from '../common/primitives.tsx';
import { NotificationList } from './NotificationList.tsx';

const BOXES: NotificationBox[] = ['all', 'incoming', 'outgoing'];

const useStyles = makeStyles({
  root: { display: 'grid', gap: '12px', maxWidth: '960px', width: '100%' },
  bar: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '8px' },
  empty: { padding: '24px 12px', color: tokens.colorNeutralForeground3, textAlign: 'center' },
});

/**
 * In-app notifications (spec §2 "notifications: all, incoming, outgoing"): the box of the
 * screen's `options.box`, with tabs leading to the other boxes' screens, newest first, "show
 * more", "mark all as read" and the spec's "no notifications". Opening a notification marks
 * it read and follows its record link (shown only when the reader may read the record).
 * New notifications arrive live (`notification` channel). Names no entity.
 */
export default function NotificationsScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { reportError } = useApi();
  const box = (screen.options?.box as NotificationBox | undefined) ?? 'all';
  const [pages, setPages] = useState(1);
  const { data, isPending, error } = useNotifications(box, pages);
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  useNotificationsLive(true);
  const routeOf = (b: NotificationBox) =>
    screens.find((x) => x.kind === 'notifications' && ((x.options?.box as string | undefined) ?? 'all') === b)?.route;

  const open = (item: NotificationItem) => {
    if (item.box === 'incoming' && !item.read) markRead.mutate(item, { onError: reportError });
    if (item.link) void navigate(item.link);
  };
  const list = data?.list ?? [];
  return (
    <section className={s.root} data-screen={screen.id}>
      <Heading>{t(screen.titleKey)}</Heading>
      <div className={s.bar}>
        <TabList
          selectedValue={box}
          onTabSelect={(_, d) => {
            const to = routeOf(d.value as NotificationBox);
            if (to) void navigate(to);
          }}
          aria-label={t('notifications.menu.section')}
        >
          {BOXES.filter((b) => routeOf(b)).map((b) => (
            <Tab key={b} value={b} data-box={b}>
              {t(`notifications.tabs.${b}`)}
            </Tab>
          ))}
        </TabList>
        {box !== 'outgoing' && (
          <Button
            appearance="secondary"
            data-action="mark-all-read"
            disabled={markAll.isPending || !list.some((i) => i.box === 'incoming' && !i.read)}
            onClick={() => markAll.mutate(undefined, { onError: reportError })}
          >
            {t('notifications.markAllRead')}
          </Button>
        )}
      </div>
      {error ? (
        <Notice intent="error">{t('notifications.failed')}</Notice>
      ) : isPending ? (
        <Spinner size="small" />
      ) : list.length === 0 ? (
        <p className={s.empty} data-state="empty">
          {t('notifications.empty')}
        </p>
      ) : (
        <>
          <NotificationList items={list} onOpen={open} />
          {list.length < (data?.total ?? 0) && (
            <Button appearance="subtle" onClick={() => setPages(pages + 1)} data-action="more">
              {t('notifications.loadMore')}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
