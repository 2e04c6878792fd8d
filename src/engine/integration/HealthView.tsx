/**
 * The `health` view: each agency's connection and circuit breaker, and over its recent calls
 * (this app instance's) the number of calls and failures, the error rate, the median and 95th
 * percentile latency, the last error and the last call — read again every half minute. A
 * table, one card per agency on a phone.
 */
import { useTranslation } from 'react-i18next';
import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title2,
  makeStyles,
} from '@fluentui/react-components';
import type { ScreenProps } from '../types.ts';
import type { IntegrationHealthRow } from '../../client/data-provider.ts';
import { useGetIntegrationHealth } from '../../client/react/hooks.ts';
import { formatDateTime, formatNumber } from '../../shared/format.ts';
import { pickLocale, type Locale } from '../../shared/locales.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { useMediaQuery } from '../common/useMediaQuery.ts';
import { BreakerBadge, Facts, StatusBadge, useIntegrationStyles } from './parts.tsx';

const NARROW_QUERY = '(max-width: 640px)';
const COLUMNS = [
  'agency',
  'status',
  'breaker',
  'calls',
  'failures',
  'errorRate',
  'p50Ms',
  'p95Ms',
  'lastCallAt',
  'lastError',
] as const;

const useStyles = makeStyles({ table: { minWidth: '960px' } });

/** A share 0…1 as a percentage with one decimal in the reader's notation (0.125 → '12,5%'). */
export function percent(share: number, locale: Locale): string {
  return `${formatNumber(Math.round(share * 1000) / 10, locale)}%`;
}

/** Each agency's connection, breaker and recent latency and errors. */
export function HealthView({ screen }: ScreenProps) {
  const s = useIntegrationStyles();
  const own = useStyles();
  const { t, i18n } = useTranslation();
  const locale = pickLocale(i18n.language);
  const narrow = useMediaQuery(NARROW_QUERY);
  const health = useGetIntegrationHealth(locale);
  if (!health.data)
    return <ScreenState screenId={screen.id} error={health.error} onRetry={() => void health.refetch()} />;
  const ms = (v: number | null) =>
    v === null
      ? '—'
      : t('integration.agency.duration', {
          ms: formatNumber(v < 10 ? Math.round(v * 10) / 10 : Math.round(v), locale),
        });
  const cells = (row: IntegrationHealthRow) => ({
    agency: row.title,
    status: <StatusBadge status={row.status} />,
    breaker: <BreakerBadge breaker={row.breaker} />,
    calls: formatNumber(row.calls, locale),
    failures: formatNumber(row.failures, locale),
    errorRate: row.calls ? percent(row.errorRate, locale) : '—',
    p50Ms: ms(row.p50Ms),
    p95Ms: ms(row.p95Ms),
    lastCallAt: row.lastCallAt ? formatDateTime(row.lastCallAt) : '—',
    lastError: row.lastError ?? '',
  });
  const { list } = health.data;
  return (
    <section className={s.root} data-screen={screen.id} aria-busy={health.isFetching}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      <Text>{t('integration.health.intro')}</Text>
      {!list.length && <Text data-state="empty">{t('integration.health.empty')}</Text>}
      {list.length > 0 && narrow && (
        <ul className={s.cards} aria-label={t(screen.titleKey)}>
          {list.map((row) => {
            const c = cells(row);
            return (
              <li key={row.agency} className={s.card} data-agency={row.agency}>
                <Text weight="semibold">{c.agency}</Text>
                <span className={s.badges}>
                  {c.status}
                  {c.breaker}
                </span>
                <Facts
                  items={COLUMNS.slice(3)
                    .filter((name) => c[name] !== '')
                    .map((name) => ({
                      pointer: `/${name}`,
                      title: t(`integration.health.column.${name}`),
                      value: c[name],
                    }))}
                />
              </li>
            );
          })}
        </ul>
      )}
      {list.length > 0 && !narrow && (
        <div className={s.scroll}>
          <Table className={own.table} size="small" aria-label={t(screen.titleKey)}>
            <TableHeader>
              <TableRow>
                {COLUMNS.map((c) => (
                  <TableHeaderCell key={c}>{t(`integration.health.column.${c}`)}</TableHeaderCell>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((row) => {
                const c = cells(row);
                return (
                  <TableRow key={row.agency} data-agency={row.agency}>
                    {COLUMNS.map((name) => (
                      <TableCell key={name} data-cell={name}>
                        {c[name]}
                      </TableCell>
                    ))}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
    </section>
  );
}
