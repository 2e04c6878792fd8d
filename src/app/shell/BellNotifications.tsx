import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { makeStyles, tokens } from '@fluentui/react-components';
import type { NotificationItem } from '../../client/data-provider.ts';
import { useLatestNotifications, useMarkNotificationRead } from '../../client/react/hooks.ts';
import { screens } from '../../definitions/client.ts';
import { NotificationList } from '../../engine/notifications/NotificationList.tsx';

const useStyles = makeStyles({
  root: {
    display: 'grid',
    gap: '6px',
    minWidth: '240px',
    maxWidth: 'min(92vw, 360px)',
    paddingBottom: '8px',
    marginBottom: '8px',
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  head: { display: 'flex', justifyContent: 'space-between', gap: '12px', fontWeight: tokens.fontWeightSemibold },
  empty: { color: tokens.colorNeutralForeground3 },
});

/**
 * The bell popover's notifications: the five latest received, unread ones bold, each opening
 * its record (and marked read); "see all" leads to the notifications screen; "no
 * notifications" when there are none. Drawn only while the popover is open.
 */
export function BellNotifications({ unread, onNavigate }: { unread: number; onNavigate(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useLatestNotifications(true);
  const markRead = useMarkNotificationRead();
  const all = screens.find((x) => x.kind === 'notifications' && (x.options?.box ?? 'all') === 'all')?.route;
  const open = (item: NotificationItem) => {
    if (!item.read) markRead.mutate(item);
    if (item.link) {
      onNavigate();
      void navigate(item.link);
    }
  };
  const list = data?.list ?? [];
  return (
    <div className={s.root} data-region="bell-notifications">
      <div className={s.head}>
        <span>{t('notifications.bell')}</span>
        <span data-notifications-unread={unread}>{unread}</span>
      </div>
      {data && list.length === 0 ? (
        <span className={s.empty} data-state="empty">
          {t('notifications.empty')}
        </span>
      ) : (
        <NotificationList items={list} onOpen={open} compact />
      )}
      {all && (
        <Link to={all} onClick={onNavigate} data-action="see-all">
          {t('notifications.seeAll')}
        </Link>
      )}
    </div>
  );
}
