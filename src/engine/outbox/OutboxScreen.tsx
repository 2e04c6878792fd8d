/**
 * The `outbox` screen kind: the messages the portal sent about one entity's records (a
 * channel's outbox rows, `GET /api/outbox/{entity}?channel=`), newest first — masked recipient,
 * text, template, the record (a link to its page), created, delivery status, attempts and last
 * error — with filters by status and day. The server keeps to the reader's scope and masks the
 * numbers; nothing here names an entity (`screen.entity`, `options.channel`).
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Button,
  CounterBadge,
  Field,
  Select,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { useDataProvider, useEntity } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { entityScreenPath } from '../common/routes.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { useMediaQuery } from '../common/useMediaQuery.ts';
import { DateFilterInput } from '../list/DateFilterInput.tsx';

/** One message as the log answers it. */
export interface OutboxEntry {
  id: number;
  recipient: string;
  text: string;
  template: string;
  status: 'pending' | 'sent' | 'failed' | 'undeliverable';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  recordId: number;
  recordLabel: string | null;
}

const STATUSES = ['pending', 'sent', 'failed', 'undeliverable'] as const;
const COLORS = { pending: 'warning', sent: 'success', failed: 'danger', undeliverable: 'subtle' } as const;
const PAGE = 20;
/** As the list screen's: below this width the messages are cards (not imported, so ag-grid stays out of this chunk). */
const NARROW_QUERY = '(max-width: 640px)';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalM,
    minWidth: 0,
  },
  title: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  filters: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'end' },
  // The table scrolls inside its box on a phone; the page itself never scrolls sideways.
  scroll: { overflowX: 'auto', maxWidth: '100%' },
  table: { minWidth: '900px' },
  text: { whiteSpace: 'pre-wrap', width: '32%' },
  cards: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    listStyleType: 'none',
    padding: 0,
    margin: 0,
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflowWrap: 'anywhere',
  },
  cardHead: { display: 'flex', justifyContent: 'space-between', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  pager: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
});

/** The sent-messages log of `screen.entity` on `screen.options.channel` (default sms). */
export default function OutboxScreen({ screen }: { screen: ScreenDefinition }) {
  const styles = useStyles();
  const { t, i18n } = useTranslation();
  const dp = useDataProvider();
  const ability = useAbility();
  const entity = screen.entity ?? '';
  // The record column is named after the entity ("Appeal"), from its definition.
  const definition = useEntity(entity);
  const recordTitle = definition.data ? t(definition.data.manifest.titleKey) : '';
  const channel = (screen.options as { channel?: string } | undefined)?.channel ?? 'sms';
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(0);
  // A reversed pair is marked on both boxes and not sent (it could only give an empty log).
  const reversed = Boolean(from && to && from > to);
  // On a phone each message is a card, not a table row.
  const narrow = useMediaQuery(NARROW_QUERY);
  const query = useMemo(
    () => ({
      channel,
      page: String(page),
      itemsPerPage: String(PAGE),
      ...(status ? { status } : {}),
      ...(from && !reversed ? { from } : {}),
      ...(to && !reversed ? { to } : {}),
    }),
    [channel, page, status, from, to],
  );
  const log = useQuery({
    queryKey: ['outbox', entity, query],
    queryFn: () =>
      dp.callEndpoint<{ list: OutboxEntry[]; total: number }>({ method: 'GET', path: `/api/outbox/${entity}`, query }),
  });
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-GB' : 'ru-RU', {
      dateStyle: 'short',
      timeStyle: 'short',
      timeZone: 'Asia/Tashkent',
    }).format(new Date(iso));
  const filter = (set: (v: string) => void) => (value: string) => {
    set(value);
    setPage(0);
  };
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / PAGE)) : 1;

  if (log.error && !log.data)
    return (
      <section data-screen={screen.id} data-entity={entity}>
        <ScreenState screenId={screen.id} error={log.error} onRetry={() => void log.refetch()} />
      </section>
    );
  return (
    <section className={styles.root} data-screen={screen.id} data-entity={entity} aria-busy={log.isFetching}>
      <header className={styles.title}>
        <Title2 as="h1">{t(screen.titleKey)}</Title2>
        {log.data && (
          <CounterBadge count={log.data.total} overflowCount={99_999} showZero color="informative" data-state="count" />
        )}
      </header>
      <div className={styles.filters}>
        <Field label={t('engine.outbox.status')}>
          <Select data-filter="status" value={status} onChange={(_, d) => filter(setStatus)(d.value)}>
            <option value="">{t('engine.outbox.anyStatus')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`engine.outbox.statuses.${s}`)}
              </option>
            ))}
          </Select>
        </Field>
        {/* The list filters' own DD.MM.YYYY box with its calendar (never the browser's mm/dd/yyyy). */}
        <Field label={t('engine.outbox.from')}>
          <span data-filter="from">
            <DateFilterInput
              value={from}
              label={t('engine.outbox.from')}
              invalid={reversed}
              onCommit={(iso) => filter(setFrom)(iso)}
            />
          </span>
        </Field>
        <Field label={t('engine.outbox.to')}>
          <span data-filter="to">
            <DateFilterInput
              value={to}
              label={t('engine.outbox.to')}
              invalid={reversed}
              onCommit={(iso) => filter(setTo)(iso)}
            />
          </span>
        </Field>
      </div>
      {log.isPending && <Spinner label={t('engine.list.loading')} />}
      {log.data && log.data.total === 0 && (
        <Text data-state="empty" size={400}>
          {t('engine.list.empty')}
        </Text>
      )}
      {log.data && log.data.total > 0 && narrow && (
        <ul className={styles.cards}>
          {log.data.list.map((m) => {
            const path = entityScreenPath(entity, ['detail'], m.recordId, ability, screen.route);
            const label = m.recordLabel ?? `#${m.recordId}`;
            return (
              <li key={m.id} className={styles.card} data-message={m.id} data-record={m.recordId}>
                <div className={styles.cardHead}>
                  {path ? <RouterLink to={path}>{label}</RouterLink> : <Text>{label}</Text>}
                  <Badge appearance="tint" color={COLORS[m.status]} data-status={m.status}>
                    {t(`engine.outbox.statuses.${m.status}`)}
                  </Badge>
                </div>
                <Text size={200}>
                  {when(m.createdAt)} · {m.recipient} · {m.template} · {t('engine.outbox.column.attempts')}:{' '}
                  {m.attempts}
                </Text>
                <Text>{m.text}</Text>
                {m.lastError && <Text size={200}>{m.lastError}</Text>}
              </li>
            );
          })}
        </ul>
      )}
      {log.data && log.data.total > 0 && !narrow && (
        <div className={styles.scroll}>
          <Table className={styles.table} aria-label={t(screen.titleKey)} size="small">
            <TableHeader>
              <TableRow>
                {['createdAt', 'recipient', 'text', 'template', 'record', 'status', 'attempts', 'lastError'].map(
                  (c) => (
                    <TableHeaderCell key={c}>
                      {c === 'record' ? recordTitle : t(`engine.outbox.column.${c}`)}
                    </TableHeaderCell>
                  ),
                )}
              </TableRow>
            </TableHeader>
            <TableBody>
              {log.data.list.map((m) => {
                const path = entityScreenPath(entity, ['detail'], m.recordId, ability, screen.route);
                const label = m.recordLabel ?? `#${m.recordId}`;
                return (
                  <TableRow key={m.id} data-message={m.id} data-record={m.recordId}>
                    <TableCell>{when(m.createdAt)}</TableCell>
                    <TableCell>{m.recipient}</TableCell>
                    <TableCell className={styles.text}>{m.text}</TableCell>
                    <TableCell>{m.template}</TableCell>
                    <TableCell>{path ? <RouterLink to={path}>{label}</RouterLink> : label}</TableCell>
                    <TableCell>
                      <Badge appearance="tint" color={COLORS[m.status]} data-status={m.status}>
                        {t(`engine.outbox.statuses.${m.status}`)}
                      </Badge>
                    </TableCell>
                    <TableCell>{m.attempts}</TableCell>
                    <TableCell>{m.lastError ?? ''}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
      {log.data && pages > 1 && (
        <div className={styles.pager}>
          <Button data-action="prev-page" disabled={page === 0} onClick={() => setPage(page - 1)}>
            ‹
          </Button>
          <Text>{t('engine.outbox.page', { page: page + 1, pages })}</Text>
          <Button data-action="next-page" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
            ›
          </Button>
        </div>
      )}
    </section>
  );
}
