/**
 * The `imports` view: a registry refreshed from another agency (manifest `registryImport` of
 * the screen's entity) — where it comes from, whether the agency is connected, how often the
 * schedule runs, a "Refresh now" button for users who may create its records, and the last
 * runs with their counts (fetched, created, updated, unchanged, failed), the rows that failed
 * and the agency's error. Read again every half minute.
 */
import { useTranslation } from 'react-i18next';
import {
  Button,
  MessageBar,
  MessageBarBody,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title2,
} from '@fluentui/react-components';
import { ArrowSyncRegular } from '@fluentui/react-icons';
import type { ScreenProps } from '../types.ts';
import type { RegistryImportRun } from '../../client/data-provider.ts';
import { useEntity, useGetRegistryImports, useRunRegistryImport } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { formatDateTime, formatNumber } from '../../shared/format.ts';
import { pickLocale } from '../../shared/locales.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { callFailureText, StatusBadge, useIntegrationStyles } from './parts.tsx';

const COUNTS = ['calls', 'fetched', 'created', 'updated', 'unchanged', 'failed'] as const;

/** One registry's imports from another agency, with "Refresh now". */
export function ImportsView({ screen }: ScreenProps) {
  const s = useIntegrationStyles();
  const { t, i18n } = useTranslation();
  const locale = pickLocale(i18n.language);
  const ability = useAbility();
  const entity = useEntity(screen.entity);
  const manifest = entity.data?.manifest;
  const log = useGetRegistryImports(manifest?.base, locale);
  const run = useRunRegistryImport(manifest?.base, screen.entity);
  if (!log.data)
    return <ScreenState screenId={screen.id} error={log.error ?? entity.error} onRetry={() => void log.refetch()} />;
  const mayRun = manifest ? ability.can('create', manifest.subject) : false;
  const connected = log.data.agencyStatus !== 'notConnected';
  const last = run.data;
  const when = (run: RegistryImportRun) => formatDateTime(run.startedAt);
  return (
    <section className={s.root} data-screen={screen.id} data-entity={screen.entity} aria-busy={log.isFetching}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      <Text>
        {t('integration.imports.intro', {
          integration: log.data.integration,
          every: t(`integration.imports.every.${log.data.every}`),
        })}{' '}
        <StatusBadge status={log.data.agencyStatus} />
      </Text>
      {mayRun && (
        <div>
          <Button
            appearance="primary"
            icon={<ArrowSyncRegular />}
            disabled={!connected || run.isPending}
            onClick={() => run.mutate()}
            data-action="registry-import"
          >
            {run.isPending ? t('integration.imports.running') : t('integration.imports.run')}
          </Button>
        </div>
      )}
      {!connected && <Text>{t('integration.imports.notConnected')}</Text>}
      {run.isError && (
        <MessageBar intent="error" data-region="import-error">
          <MessageBarBody>{callFailureText(run.error, t)}</MessageBarBody>
        </MessageBar>
      )}
      {last && !run.isPending && (
        <MessageBar intent={last.failed ? 'warning' : 'success'} data-region="import-done">
          <MessageBarBody>
            {t('integration.imports.done', {
              fetched: formatNumber(last.fetched, locale),
              created: formatNumber(last.created, locale),
              updated: formatNumber(last.updated, locale),
              unchanged: formatNumber(last.unchanged, locale),
              failed: formatNumber(last.failed, locale),
            })}
          </MessageBarBody>
        </MessageBar>
      )}
      {!log.data.list.length && <Text data-state="empty">{t('integration.imports.empty')}</Text>}
      {log.data.list.length > 0 && (
        <div className={s.scroll}>
          <Table size="small" aria-label={t(screen.titleKey)}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('integration.imports.column.startedAt')}</TableHeaderCell>
                <TableHeaderCell>{t('integration.imports.column.trigger')}</TableHeaderCell>
                {COUNTS.map((c) => (
                  <TableHeaderCell key={c}>{t(`integration.imports.column.${c}`)}</TableHeaderCell>
                ))}
                <TableHeaderCell>{t('integration.imports.column.problems')}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {log.data.list.map((r) => (
                <TableRow key={r.id} data-run={r.id}>
                  <TableCell>{when(r)}</TableCell>
                  <TableCell>
                    {r.trigger === 'schedule'
                      ? t('integration.imports.trigger.schedule')
                      : t('integration.imports.trigger.manual', { user: r.userName ?? '' })}
                  </TableCell>
                  {COUNTS.map((c) => (
                    <TableCell key={c} data-count={c}>
                      {formatNumber(r[c], locale)}
                    </TableCell>
                  ))}
                  <TableCell>
                    {r.error ?? ''}
                    {r.failures.map((f) => (
                      <div key={f.row}>{t('integration.imports.failure', { row: f.row, problem: f.problem })}</div>
                    ))}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </section>
  );
}
