import { Body1, Caption1, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { JSONSchema7 } from 'json-schema';
import { useGetAudit } from '../../client/react/hooks.ts';
import type { AuditChange, AuditEntry } from '../../shared/audit.ts';
import { manifests } from '../../definitions/client.ts';
import { formatDateTime, resolveColumnFormat, statesKeyOf, type GridColumn } from '../../shared/format.ts';
import { resolveFieldSchema, SYSTEM_FIELDS } from '../../shared/field-schema.ts';
import { pointerSegments } from '../../shared/pointer.ts';
import { fieldTitleKeys, readField, type ReadField } from './read-view.ts';
import { formattedText, useReadTools, type ReadTools } from './ReadValue.tsx';

/** Characters of one value shown; the audit keeps more. */
const SHOWN_CHARS = 200;

const useStyles = makeStyles({
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  entry: {
    padding: `${tokens.spacingVerticalS} 0`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  when: { color: tokens.colorNeutralForeground3 },
  change: { overflowWrap: 'anywhere' },
  quiet: { color: tokens.colorNeutralForeground3 },
});

/** How the history tells a field's values: as the read view does, files and rows by their count. */
function formatsOf(schema: JSONSchema7, pointers: readonly string[], statesKey: string | undefined) {
  return new Map<string, ReadField>(
    pointers.map((p) => {
      const field = resolveFieldSchema(schema, p);
      const name = pointerSegments(p)[0]!;
      // The server-owned fields (a transition's status) are formatted as the list formats them.
      if (!field || (SYSTEM_FIELDS as readonly string[]).includes(name))
        return [
          p,
          { pointer: p, kind: 'value', format: resolveColumnFormat({ field: p } as GridColumn, schema, statesKey) },
        ];
      return [p, readField(schema, p, field, undefined)];
    }),
  );
}

/**
 * The record's changes in words, newest first: "Aziz Rahimov changed Customer › Surname:
 * Karimov → Karimova" — the person by name (the server sends it), each field by its schema
 * title ("Section › Field" when nested), old → new formatted as the list formats values
 * (dates, choices and reference names translated, staff users by name, files and rows by
 * their count). A create or a delete is one sentence; rows written before values were kept
 * name the changed fields only.
 */
export function ChangeHistory({ entity, id, schema }: { entity: string; id: number; schema: JSONSchema7 }) {
  const { t } = useTranslation();
  const s = useStyles();
  const history = useGetAudit(entity, id);
  const manifest = manifests.get(entity);
  // A transition's status change shows the state's one label, as the chip and the list do.
  const statesKey = manifest ? statesKeyOf(manifest) : undefined;
  const formats = useMemo(() => {
    const pointers = new Set((history.data ?? []).flatMap((row) => (row.diff ?? []).map((c) => c.pointer)));
    return formatsOf(schema, [...pointers], statesKey);
  }, [history.data, schema, statesKey]);
  // Staff users named in the changes, asked for in one request.
  const staffIds = (history.data ?? []).flatMap((row) =>
    (row.diff ?? [])
      .filter((c) => formats.get(c.pointer)?.kind === 'staffUser')
      .flatMap((c) => [c.old, c.new])
      .filter((v): v is number => typeof v === 'number'),
  );
  const tools = useReadTools([...formats.values()], staffIds);

  if (history.isLoading) return <Spinner />;
  if (!history.data?.length) return <Body1>{t('engine.detail.noHistory')}</Body1>;
  const title = (pointer: string) => {
    const [name, ...deeper] = pointerSegments(pointer);
    if (!deeper.length && (SYSTEM_FIELDS as readonly string[]).includes(name!)) return t(`common.field.${name}`);
    const keys = fieldTitleKeys(schema, pointer);
    return keys.length ? keys.map((k) => t(k)).join(' › ') : pointer.slice(1);
  };
  const who = (row: AuditEntry) =>
    row.actorName ?? (row.actor === 'system' ? t('record.history.system') : t('record.history.someone'));
  return (
    <ol className={s.list} data-region="history">
      {history.data.map((row) => (
        <li key={row.id} className={s.entry} data-audit={row.action}>
          <Caption1 className={s.when}>
            <time dateTime={row.at}>{formatDateTime(row.at)}</time>
            {' · '}
            {t(`engine.detail.actions.${row.action}`, { defaultValue: row.action })}
          </Caption1>
          <Sentences row={row} who={who(row)} title={title} formats={formats} tools={tools} />
          {/* The system's own change says what it followed: the migration files, fields kept aside. */}
          {row.note && (
            <Caption1 className={s.quiet} data-note>
              {row.note}
            </Caption1>
          )}
        </li>
      ))}
    </ol>
  );
}

/** One audit row's sentences: what the person did, field by field. */
function Sentences({
  row,
  who,
  title,
  formats,
  tools,
}: {
  row: AuditEntry;
  who: string;
  title(pointer: string): string;
  formats: Map<string, ReadField>;
  tools: ReadTools;
}) {
  const { t } = useTranslation();
  const s = useStyles();
  if (row.action === 'create' || row.action === 'delete')
    return <Body1 data-sentence>{t(`record.history.${row.action}d`, { who })}</Body1>;
  // A generated document (manifest `documents`): who made it; the note names the kind and files.
  if (row.action === 'document') return <Body1 data-sentence>{t('docgen.history', { who })}</Body1>;
  if (!row.diff)
    return (
      <Body1 data-sentence>
        {t('record.history.changedFields', { who, fields: row.changed.map((f) => title(`/${f}`)).join(', ') })}
      </Body1>
    );
  if (!row.diff.length) return <Body1 data-sentence>{t('record.history.noChanges', { who })}</Body1>;
  const shown = (c: AuditChange, side: 'old' | 'new') => {
    if (!(side in c)) return '—';
    const field = formats.get(c.pointer);
    const value = c[side];
    let text: string;
    if (c.truncated?.includes(side)) text = String(value);
    else if (field?.kind === 'files' || field?.kind === 'table')
      text = t(`record.history.${field.kind === 'files' ? 'files' : 'rows'}`, {
        count: Array.isArray(value) ? value.length : 0,
      });
    else if (field?.kind === 'staffUser') text = tools.staffName(Number(value)) ?? `#${String(value)}`;
    else if (field?.kind === 'entityRef') text = `#${String(value)}`;
    else text = formattedText(value, field?.format, tools);
    if (text === '') return '—';
    return text.length > SHOWN_CHARS || c.truncated?.includes(side) ? `${text.slice(0, SHOWN_CHARS)}…` : text;
  };
  return (
    <>
      {row.diff.map((c) => (
        <Body1 key={c.pointer} block data-change={c.pointer} className={s.change}>
          {c.redacted
            ? t('record.history.withheld', { who, field: title(c.pointer) })
            : t('record.history.changed', { who, field: title(c.pointer), from: shown(c, 'old'), to: shown(c, 'new') })}
        </Body1>
      ))}
    </>
  );
}
