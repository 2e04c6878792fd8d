/**
 * The `audit` view: every call of an agency's method, newest first — time in Tashkent, user,
 * agency and method, the parameters as the audit keeps them (masked for personal data), the
 * purpose, the record it was made for (a link to its page), outcome, HTTP status, duration and
 * whether it came from the cache — filtered by days, agency, method, user, outcome and personal
 * data (kept in the address), paged, and exported with the same filters as XLSX.
 */
import { useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  Badge,
  Button,
  CounterBadge,
  Field,
  Input,
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
} from '@fluentui/react-components';
import { ArrowDownloadRegular, DismissRegular } from '@fluentui/react-icons';
import type { ScreenProps } from '../types.ts';
import type { IntegrationAuditFilters, IntegrationAuditRow, IntegrationOutcome } from '../../client/data-provider.ts';
import { useDataProvider, useGetIntegrationTitles, useSearchIntegrationCalls } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { manifests } from '../../definitions/client.ts';
import { formatDateTime } from '../../shared/format.ts';
import { pickLocale } from '../../shared/locales.ts';
import { entityScreenPath } from '../common/routes.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { useDownloadClick } from '../common/useDownload.ts';
import { useMediaQuery } from '../common/useMediaQuery.ts';
import { DateFilterInput } from '../list/DateFilterInput.tsx';
import {
  isReversed,
  OUTCOMES,
  paramsLine,
  readAuditState,
  writeAuditState,
  type AuditState,
} from './integration-model.ts';
import { useIntegrationStyles } from './parts.tsx';

const PAGE = 20;
const NARROW_QUERY = '(max-width: 640px)';
const OUTCOME_COLORS = {
  ok: 'success',
  notFound: 'informative',
  refused: 'warning',
  failed: 'danger',
  unavailable: 'danger',
} as const;
const COLUMNS = [
  'at',
  'user',
  'agency',
  'method',
  'params',
  'purpose',
  'record',
  'outcome',
  'httpStatus',
  'durationMs',
  'cached',
] as const;

const useStyles = makeStyles({
  // Columns sized by their content: the parameters and the purpose take the room, the rest stays on one line.
  table: { minWidth: '1100px', tableLayout: 'auto' },
  wide: { minWidth: '180px', overflowWrap: 'anywhere' },
  medium: { minWidth: '120px' },
  tight: { whiteSpace: 'nowrap' },
  user: { minWidth: '160px' },
});
const WIDE = new Set(['params', 'purpose']);
const MEDIUM = new Set(['agency', 'method', 'record']);

/** The call audit: filters, a page of calls, the export. */
export function AuditView({ screen }: ScreenProps) {
  const s = useIntegrationStyles();
  const own = useStyles();
  const { t, i18n } = useTranslation();
  const dp = useDataProvider();
  const ability = useAbility();
  const onDownload = useDownloadClick();
  const narrow = useMediaQuery(NARROW_QUERY);
  const [search, setSearch] = useSearchParams();
  const state = useMemo(() => readAuditState(search), [search]);
  const reversed = isReversed(state.filters);
  // A reversed day range is marked on both boxes and not sent (it could only find nothing).
  const sent = useMemo<IntegrationAuditFilters>(() => {
    if (!reversed) return state.filters;
    const { from: _from, to: _to, ...rest } = state.filters;
    return rest;
  }, [state.filters, reversed]);
  const calls = useSearchIntegrationCalls(sent, state.page, PAGE);
  const titles = useGetIntegrationTitles(pickLocale(i18n.language));
  const [user, setUser] = useState(state.filters.user ?? '');

  const update = (next: AuditState) => setSearch(writeAuditState(next));
  const filter = (patch: Partial<IntegrationAuditFilters>) =>
    update({ filters: { ...state.filters, ...patch }, page: 0 });
  const agencies = titles.data?.agencies ?? [];
  const agencyTitle = (id: string) => agencies.find((a) => a.id === id)?.title ?? id;
  const methodTitle = (agency: string, id: string) =>
    agencies.find((a) => a.id === agency)?.methods.find((m) => m.id === id)?.title ?? id;
  const methods = agencies.find((a) => a.id === state.filters.agency)?.methods ?? [];
  const outcomeText = (o: IntegrationOutcome) => t(`integrationAudit.outcome.${o}`);
  const yesNo = (v: boolean) => t(v ? 'integrationAudit.yes' : 'integrationAudit.no');
  const pages = calls.data ? Math.max(1, Math.ceil(calls.data.total / PAGE)) : 1;
  const exportHref = dp.integrationAuditExportUrl(sent);

  const recordLink = (row: IntegrationAuditRow) => {
    if (!row.recordEntity || row.recordId === null) return '';
    const titleKey = manifests.get(row.recordEntity)?.titleKey;
    const label = `${titleKey ? t(titleKey) : row.recordEntity} № ${row.recordId}`;
    const path = entityScreenPath(row.recordEntity, ['detail'], row.recordId, ability);
    return path ? <RouterLink to={path}>{label}</RouterLink> : label;
  };
  const cells = (row: IntegrationAuditRow) => ({
    at: formatDateTime(row.at),
    user: row.userName ?? '',
    agency: agencyTitle(row.agency),
    method: methodTitle(row.agency, row.method),
    params: paramsLine(row.params),
    purpose: row.purpose ?? '',
    record: recordLink(row),
    outcome: (
      <Badge appearance="tint" color={OUTCOME_COLORS[row.outcome] ?? 'subtle'} data-outcome={row.outcome}>
        {outcomeText(row.outcome)}
      </Badge>
    ),
    httpStatus: row.httpStatus ?? '',
    durationMs: row.durationMs,
    cached: yesNo(row.cached),
  });

  if (calls.error && !calls.data)
    return <ScreenState screenId={screen.id} error={calls.error} onRetry={() => void calls.refetch()} />;
  return (
    <section className={s.root} data-screen={screen.id} aria-busy={calls.isFetching}>
      <div className={s.heading}>
        <Title2 as="h1">{t(screen.titleKey)}</Title2>
        {calls.data && (
          <CounterBadge
            count={calls.data.total}
            overflowCount={99_999}
            showZero
            color="informative"
            data-state="count"
          />
        )}
      </div>
      <Text>{t('integration.audit.intro')}</Text>
      <div className={s.filters}>
        <Field label={t('integration.audit.from')}>
          <span data-filter="from">
            <DateFilterInput
              value={state.filters.from ?? ''}
              label={t('integration.audit.from')}
              invalid={reversed}
              onCommit={(iso) => filter({ from: iso || undefined })}
            />
          </span>
        </Field>
        <Field label={t('integration.audit.to')}>
          <span data-filter="to">
            <DateFilterInput
              value={state.filters.to ?? ''}
              label={t('integration.audit.to')}
              invalid={reversed}
              onCommit={(iso) => filter({ to: iso || undefined })}
            />
          </span>
        </Field>
        <Field label={t('integrationAudit.column.agency')}>
          <Select
            data-filter="agency"
            value={state.filters.agency ?? ''}
            onChange={(_, d) => filter({ agency: d.value || undefined, method: undefined })}
          >
            <option value="">{t('integration.audit.any')}</option>
            {agencies.map((a) => (
              <option key={a.id} value={a.id}>
                {a.title}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t('integrationAudit.column.method')}>
          <Select
            data-filter="method"
            value={state.filters.method ?? ''}
            disabled={!methods.length}
            onChange={(_, d) => filter({ method: d.value || undefined })}
          >
            <option value="">{t('integration.audit.any')}</option>
            {methods.map((m) => (
              <option key={m.id} value={m.id}>
                {m.title}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t('integrationAudit.column.user')}>
          <Input
            className={own.user}
            data-filter="user"
            value={user}
            onChange={(_, d) => setUser(d.value)}
            onBlur={() => user.trim() !== (state.filters.user ?? '') && filter({ user: user.trim() || undefined })}
            onKeyDown={(e) => e.key === 'Enter' && filter({ user: user.trim() || undefined })}
          />
        </Field>
        <Field label={t('integrationAudit.column.outcome')}>
          <Select
            data-filter="outcome"
            value={state.filters.outcome ?? ''}
            onChange={(_, d) => filter({ outcome: (d.value || undefined) as IntegrationOutcome | undefined })}
          >
            <option value="">{t('integration.audit.any')}</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {outcomeText(o)}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t('integrationAudit.column.personalData')}>
          <Select
            data-filter="personalData"
            value={state.filters.personalData === undefined ? '' : String(state.filters.personalData)}
            onChange={(_, d) => filter({ personalData: d.value === '' ? undefined : d.value === 'true' })}
          >
            <option value="">{t('integration.audit.any')}</option>
            <option value="true">{t('integration.audit.onlyPersonal')}</option>
            <option value="false">{t('integration.audit.withoutPersonal')}</option>
          </Select>
        </Field>
        {Object.keys(state.filters).length > 0 && (
          <Button
            icon={<DismissRegular />}
            data-action="clear-filters"
            onClick={() => {
              setUser('');
              update({ filters: {}, page: 0 });
            }}
          >
            {t('engine.list.clearFilters')}
          </Button>
        )}
        <Button
          as="a"
          href={exportHref}
          download
          onClick={onDownload}
          icon={<ArrowDownloadRegular />}
          data-action="export"
        >
          {t('engine.list.export')}
        </Button>
      </div>
      {calls.isPending && <Spinner label={t('engine.list.loading')} />}
      {calls.data && calls.data.total === 0 && (
        <Text data-state="empty" size={400}>
          {t('integration.audit.empty')}
        </Text>
      )}
      {calls.data && calls.data.total > 0 && narrow && (
        <ul className={s.cards} aria-label={t(screen.titleKey)}>
          {calls.data.list.map((row) => {
            const c = cells(row);
            return (
              <li key={row.id} className={s.card} data-call={row.id}>
                <span className={s.badges}>
                  {c.outcome}
                  <Text size={200}>{c.at}</Text>
                </span>
                <Text weight="semibold">
                  {c.agency} · {c.method}
                </Text>
                <Text size={200}>
                  {c.user} · {c.durationMs} ms{row.cached ? ` · ${t('integrationAudit.column.cached')}` : ''}
                </Text>
                {c.params && <Text data-cell="params">{c.params}</Text>}
                {c.purpose && <Text data-cell="purpose">{c.purpose}</Text>}
                {c.record && <Text>{c.record}</Text>}
              </li>
            );
          })}
        </ul>
      )}
      {calls.data && calls.data.total > 0 && !narrow && (
        <div className={s.scroll}>
          <Table className={own.table} size="small" aria-label={t(screen.titleKey)}>
            <TableHeader>
              <TableRow>
                {COLUMNS.map((c) => (
                  <TableHeaderCell key={c}>{t(`integrationAudit.column.${c}`)}</TableHeaderCell>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {calls.data.list.map((row) => {
                const c = cells(row);
                return (
                  <TableRow key={row.id} data-call={row.id}>
                    {COLUMNS.map((name) => (
                      <TableCell
                        key={name}
                        data-cell={name}
                        className={WIDE.has(name) ? own.wide : MEDIUM.has(name) ? own.medium : own.tight}
                      >
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
      {calls.data && pages > 1 && (
        <div className={s.pager}>
          <Button
            data-action="prev-page"
            aria-label={t('engine.list.prevPage')}
            disabled={state.page === 0}
            onClick={() => update({ ...state, page: state.page - 1 })}
          >
            ‹
          </Button>
          <Text>{t('engine.list.pageOf', { page: state.page + 1, pages })}</Text>
          <Button
            data-action="next-page"
            aria-label={t('engine.list.nextPage')}
            disabled={state.page + 1 >= pages}
            onClick={() => update({ ...state, page: state.page + 1 })}
          >
            ›
          </Button>
        </div>
      )}
    </section>
  );
}
