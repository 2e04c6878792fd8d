import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Spinner,
  Body1,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { JSONSchema7 } from 'json-schema';
import { useGetAudit, useGetReferences } from '../../client/react/hooks.ts';
import type { ReferenceItem } from '../../client/data-provider.ts';
import type { AuditChange, AuditEntry } from '../../shared/audit.ts';
import { formatCell } from '../../shared/cell-formats.ts';
import { manifests } from '../../definitions/client.ts';
import {
  formatDateTime,
  resolveColumnFormat,
  type ColumnFormat,
  statesKeyOf,
  type FormatContext,
  type GridColumn,
  type Translate,
} from '../../shared/format.ts';
import { pickLocale } from '../../shared/locales.ts';
import { SYSTEM_FIELDS } from '../../shared/field-schema.ts';
import { pointerSegments } from '../../shared/pointer.ts';

/** Characters of one value shown in the table; the audit keeps more. */
const SHOWN_CHARS = 200;

const useStyles = makeStyles({
  change: { overflowWrap: 'anywhere' },
  quiet: { color: tokens.colorNeutralForeground3 },
});

/**
 * The record's audit rows: when, who, what was done and, for each changed field, its old →
 * new value as the list shows values (dates, yes/no, choices and reference names translated).
 * Rows written before values were kept name the changed fields only.
 */
export function HistoryTable({
  entity,
  id,
  schema,
  fieldTitle,
}: {
  entity: string;
  id: number;
  schema: JSONSchema7;
  fieldTitle(pointer: string): string;
}) {
  const { t, i18n } = useTranslation();
  const s = useStyles();
  const history = useGetAudit(entity, id);
  const locale = pickLocale(i18n.language);
  const translate = useMemo<Translate>(() => (key) => (i18n.exists(key) ? t(key) : undefined), [t, i18n]);
  const manifest = manifests.get(entity);
  // A transition's status change shows the state's label, as the badge does.
  const statesKey = manifest ? statesKeyOf(manifest) : undefined;
  const formats = useMemo(() => {
    const pointers = new Set((history.data ?? []).flatMap((row) => (row.diff ?? []).map((c) => c.pointer)));
    return new Map([...pointers].map((p) => [p, resolveColumnFormat({ field: p } as GridColumn, schema, statesKey)]));
  }, [history.data, schema, statesKey]);
  const referenceKinds = [
    ...new Set([...formats.values()].map((f) => f.reference).filter((k): k is string => Boolean(k))),
  ];
  // Same keys as useGetReference, so a list already loaded by a form or a grid is reused.
  const references = useGetReferences(referenceKinds);
  const byKind = new Map<string, Map<number, ReferenceItem>>(
    referenceKinds.map((kind, i) => [kind, new Map((references[i]?.data ?? []).map((item) => [item.id, item]))]),
  );
  const context: FormatContext = { locale, translate, reference: (kind, item) => byKind.get(kind)?.get(item) };

  if (history.isLoading) return <Spinner />;
  if (!history.data?.length) return <Body1>{t('engine.detail.noHistory')}</Body1>;
  // The record's own fields by their schema titles; the server-owned ones (a transition's status) by their common names.
  const title = (pointer: string) => {
    const [name, ...deeper] = pointerSegments(pointer);
    return !deeper.length && (SYSTEM_FIELDS as readonly string[]).includes(name!)
      ? t(`common.field.${name}`)
      : fieldTitle(pointer);
  };
  const shown = (c: AuditChange, side: 'old' | 'new') => {
    if (!(side in c)) return '—';
    const value = c.truncated?.includes(side)
      ? String(c[side])
      : formatCell(c[side], formats.get(c.pointer) ?? ({ kind: 'text' } as ColumnFormat), context);
    const text = value === '' ? '—' : value;
    return text.length > SHOWN_CHARS || c.truncated?.includes(side) ? `${text.slice(0, SHOWN_CHARS)}…` : text;
  };
  const changes = (row: AuditEntry) => {
    if (!row.diff) return row.changed.map((f) => title(`/${f}`)).join(', ');
    if (!row.diff.length) return <span className={s.quiet}>{t('engine.detail.audit.noChanges')}</span>;
    return row.diff.map((c) => (
      <div key={c.pointer} data-change={c.pointer} className={s.change}>
        {title(c.pointer)}:{' '}
        {c.redacted ? (
          <span className={s.quiet}>{t('engine.detail.audit.withheld')}</span>
        ) : (
          `${shown(c, 'old')} → ${shown(c, 'new')}`
        )}
      </div>
    ));
  };
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
            <TableCell>
              {t(`engine.detail.actions.${row.action}`, { defaultValue: row.action })}
              {/* The system's own change says what it followed: the migration files, fields kept aside. */}
              {row.note && <div data-note>{row.note}</div>}
            </TableCell>
            <TableCell>{changes(row)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
