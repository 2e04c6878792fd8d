import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CounterBadge, Popover, PopoverSurface, PopoverTrigger, makeStyles, tokens } from '@fluentui/react-components';
import { AlertRegular } from '@fluentui/react-icons';
import type { Counters } from '../../client/data-provider.ts';
import { useGetCounters, useNotificationsLive, useUnreadNotificationCount } from '../../client/react/hooks.ts';
import { queryKeys } from '../../client/query-keys.ts';
import { subscribeLive } from '../../client/live.ts';
import { isStaff } from '../../client/session.ts';
import { ShellButton } from '../../engine/common/primitives.tsx';
import { useCounterLinks } from '../../engine/common/counter-links.ts';
import { staffHomeRoute } from '../../client/landing.ts';
import { Link } from 'react-router-dom';
import { BellNotifications } from './BellNotifications.tsx';

/** The seven counters of GET /api/letter/get-all-count, in the spec's order. */
export const COUNTER_KEYS = [
  'applicationDXACount',
  'descendedDXACount',
  'applicationCount',
  'resolutionCount',
  'descendedCount',
  'outgoingCount',
  'incomeCount',
] as const;
/** The spec's poll (§7: every 15 s), kept as the fallback of the live channel. */
const POLL_MS = 15_000;

const useStyles = makeStyles({
  wrap: { position: 'relative', display: 'inline-flex' },
  badge: { position: 'absolute', top: '-2px', right: '-4px', pointerEvents: 'none' },
  list: {
    display: 'grid',
    gridTemplateColumns: '1fr auto',
    gap: '6px 16px',
    minWidth: '240px',
    maxWidth: 'min(92vw, 360px)',
  },
  home: { gridColumn: '1 / -1' },
  total: {
    fontWeight: tokens.fontWeightSemibold,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    paddingTop: '6px',
  },
});

/**
 * The header's notification counters for staff: replaced at once by what the server pushes
 * on notificationMsg, and fetched again when nothing came for 15 s (spec §7's poll, the
 * fallback: TanStack Query restarts the interval whenever the data changes, a push included).
 * A failed fetch is ignored (spec §8). Loaded by Counters.tsx only for staff, with the
 * Popover, badge and live channel it needs.
 */
export default function StaffCounters() {
  const s = useStyles();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const staff = isStaff();
  const { data } = useGetCounters({ enabled: staff, refetchInterval: POLL_MS });
  // In-app notifications: the badge is their unread count (live on `notification`, polled as the fallback).
  const { data: unread = 0 } = useUnreadNotificationCount(staff, POLL_MS);
  useNotificationsLive(staff);
  const [open, setOpen] = useState(false);
  useEffect(
    () =>
      staff
        ? subscribeLive('notificationMsg', (body) => {
            // A poll on its way was asked before these figures were pushed: its answer must not bring
            // older ones back (a later change is pushed again anyway). Setting the data also restarts
            // the 15 s interval, so the poll comes only when nothing was pushed for that long.
            void queryClient
              .cancelQueries({ queryKey: queryKeys.counters() })
              .then(() => queryClient.setQueryData(queryKeys.counters(), body as Counters));
          })
        : undefined,
    [staff, queryClient],
  );
  if (!staff) return null;
  const total = data?.total ?? 0;
  return (
    <Popover withArrow positioning="below-end" open={open} onOpenChange={(_, d) => setOpen(d.open)}>
      <PopoverTrigger disableButtonEnhancement>
        <span className={s.wrap} data-counters-total={total} data-notifications-unread={unread}>
          <ShellButton
            appearance="subtle"
            aria-label={`${t('notifications.bellCount', { count: unread })}; ${t('counters.title')}: ${total}`}
            title={t('counters.title')}
            data-action="counters"
          >
            <AlertRegular fontSize={20} />
          </ShellButton>
          {unread > 0 && (
            <CounterBadge className={s.badge} count={unread} size="small" color="danger" overflowCount={999} />
          )}
        </span>
      </PopoverTrigger>
      <PopoverSurface aria-label={t('counters.title')}>
        {open && <BellNotifications unread={unread} onNavigate={() => setOpen(false)} />}
        <CounterList data={data} />
      </PopoverSurface>
    </Popover>
  );
}

/**
 * The popover's counts, each leading where its records are (counter-links.ts): the user's own
 * work on the staff home, or the list filtered by the counted status. Drawn only while open,
 * so the grids the links need load then.
 */
function CounterList({ data }: { data: Counters | undefined }) {
  const s = useStyles();
  const { t } = useTranslation();
  const links = useCounterLinks();
  const home = staffHomeRoute();
  return (
    <div className={s.list} data-region="counters">
      {COUNTER_KEYS.map((k) => {
        const to = links[k];
        return [
          <span key={`${k}-l`}>{to ? <Link to={to}>{t(`counters.${k}`)}</Link> : t(`counters.${k}`)}</span>,
          <span key={`${k}-v`} data-counter={k}>
            {data?.[k] ?? 0}
          </span>,
        ];
      })}
      <span className={s.total}>{t('counters.total')}</span>
      <span className={s.total} data-counter="total">
        {data?.total ?? 0}
      </span>
      {home && (
        <Link className={s.home} to={home}>
          {t('home.title')}
        </Link>
      )}
    </div>
  );
}
