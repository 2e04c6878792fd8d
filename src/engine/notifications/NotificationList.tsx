import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { NotificationItem } from '../../client/data-provider.ts';
import { formatDateTime } from '../../shared/format.ts';

export const useListStyles = makeStyles({
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '2px' },
  row: {
    display: 'grid',
    gridTemplateColumns: '12px 1fr',
    columnGap: '8px',
    padding: '10px 12px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  dot: { width: '8px', height: '8px', borderRadius: '50%', marginTop: '6px', backgroundColor: 'transparent' },
  unreadDot: { backgroundColor: tokens.colorBrandBackground },
  text: { overflowWrap: 'anywhere', lineHeight: tokens.lineHeightBase300 },
  unreadText: { fontWeight: tokens.fontWeightSemibold },
  meta: {
    gridColumn: '2',
    display: 'flex',
    flexWrap: 'wrap',
    gap: '4px 12px',
    marginTop: '4px',
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground3,
  },
});

/**
 * Notifications as rows: unread ones bold with a dot; text, who from (incoming) or to
 * (outgoing), when, and the record's link when the reader may open it. A row opens with a
 * click, Enter or Space: `onOpen` marks it read and follows the link.
 */
export function NotificationList({
  items,
  onOpen,
  compact = false,
}: {
  items: readonly NotificationItem[];
  onOpen(item: NotificationItem): void;
  compact?: boolean;
}) {
  const s = useListStyles();
  const { t } = useTranslation();
  return (
    <ul className={s.list} data-region="notifications">
      {items.map((item) => {
        const unread = item.box === 'incoming' && !item.read;
        const who =
          item.box === 'incoming'
            ? t('notifications.from', { name: item.sender?.name ?? t('notifications.system') })
            : t('notifications.to', { name: item.recipient.name });
        return (
          <li
            key={item.id}
            className={s.row}
            tabIndex={0}
            data-notification={item.id}
            data-read={String(!unread)}
            aria-label={`${unread ? `${t('notifications.unread')}: ` : ''}${item.text}`}
            onClick={() => onOpen(item)}
            onKeyDown={(e) => {
              if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
              e.preventDefault();
              onOpen(item);
            }}
          >
            <span className={mergeClasses(s.dot, unread && s.unreadDot)} aria-hidden="true" />
            <span className={mergeClasses(s.text, unread && s.unreadText)}>{item.text}</span>
            <span className={s.meta}>
              <span>{who}</span>
              <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
              {!compact &&
                (item.link ? (
                  <Link to={item.link} onClick={(e) => e.stopPropagation()} tabIndex={-1}>
                    {t('notifications.openRecord')}: {item.recordLabel ?? item.recordId}
                  </Link>
                ) : (
                  <span>{t('notifications.recordHidden')}</span>
                ))}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
