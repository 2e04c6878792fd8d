import { Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Spinner, Body1 } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useGetHistory } from '../../app/api/hooks.ts';
import { formatDateTime } from '../../shared/format.ts';

/** The record's audit rows: when, who, what was done and which fields changed. */
export function HistoryTable({ entity, id, fieldTitle }: { entity: string; id: number; fieldTitle(pointer: string): string }) {
  const { t } = useTranslation();
  const history = useGetHistory(entity, id);
  if (history.isLoading) return <Spinner />;
  if (!history.data?.length) return <Body1>{t('engine.detail.noHistory')}</Body1>;
  return (
    <Table data-region="history" size="small">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>{t('engine.detail.when')}</TableHeaderCell>
          <TableHeaderCell>{t('engine.detail.who')}</TableHeaderCell>
          <TableHeaderCell>{t('engine.detail.action')}</TableHeaderCell>
          <TableHeaderCell>{t('engine.detail.changed')}</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {history.data.map((row) => (
          <TableRow key={row.id} data-audit={row.action}>
            <TableCell>{formatDateTime(row.at)}</TableCell>
            <TableCell>{row.actor ?? t('engine.detail.anonymous')}</TableCell>
            <TableCell>{t(`engine.detail.actions.${row.action}`, { defaultValue: row.action })}</TableCell>
            <TableCell>{row.changed.map((f) => fieldTitle(`/${f}`)).join(', ')}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
