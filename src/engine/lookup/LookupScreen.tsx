import { Body1, Button, makeStyles, MessageBar, MessageBarBody, Table, TableBody, TableCell, TableRow, Title2, tokens } from '@fluentui/react-components';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JSONSchema7 } from 'json-schema';
import type { ScreenProps } from '../types.ts';
import { useApi } from '../../app/api/context.tsx';
import { useLockedAction } from '../common/useLockedAction.ts';
import { formatDate, formatDateTime, formatMoney } from '../../shared/format.ts';
import { EntityForm, type EntityFormHandle } from '../form/EntityForm.tsx';

/** What a lookup screen's `options` say: the query form, the endpoint and the result fields. */
export interface LookupOptions {
  endpoint: string;
  method?: 'GET' | 'POST';
  /** JSON Schema of the query (titles are i18n keys). */
  query: JSONSchema7;
  uiSchema?: Record<string, unknown>;
  /** Fields of the answer to show, in order. The answer is an object, or `{list}` of objects. */
  result: Array<{ field: string; titleKey: string; format?: 'text' | 'date' | 'datetime' | 'money' }>;
  /** Shown when the answer is empty (null, `{list: []}`). */
  emptyKey?: string;
  submitKey?: string;
  /** POST only: send the query as query parameters with an empty body (e.g. list-search's filters). */
  send?: 'body' | 'query';
  /**
   * Several ways to look the same thing up (product by tariff code, barcode or MXIK): each tab
   * replaces any of the options above; the first tab (or `initialTab`) is open first.
   */
  tabs?: Array<Partial<Omit<LookupOptions, 'tabs' | 'initialTab'>> & { id: string; titleKey: string }>;
  initialTab?: string;
}

const read = (row: Record<string, unknown>, pointer: string): unknown =>
  pointer.split('/').slice(1).reduce<unknown>((node, seg) => (node as Record<string, unknown> | undefined)?.[seg], row);

const show = (value: unknown, format: LookupOptions['result'][number]['format']): string => {
  if (value === null || value === undefined) return '—';
  if (format === 'date') return formatDate(String(value));
  if (format === 'datetime') return formatDateTime(String(value));
  if (format === 'money') return formatMoney(Number(value));
  return String(value);
};

/**
 * A small query form whose answer is shown below it (the public lookups: case tracking,
 * product information, decisions…). Everything comes from the screen's options.
 */
export default function LookupScreen({ screen }: ScreenProps) {
  const { t } = useTranslation();
  const s = useStyles();
  const { dataProvider, reportError } = useApi();
  const all = screen.options as unknown as LookupOptions;
  const [tab, setTab] = useState<string | undefined>(all.initialTab ?? all.tabs?.[0]?.id);
  const options: LookupOptions = { ...all, ...all.tabs?.find((x) => x.id === tab) };
  const form = useRef<EntityFormHandle>(null);
  const [query, setQuery] = useState<Record<string, unknown>>({});
  const [answer, setAnswer] = useState<Array<Record<string, unknown>> | undefined>(undefined);
  const switchTab = (id: string) => {
    setTab(id);
    setQuery({});
    setAnswer(undefined);
  };
  const run = useLockedAction(async () => {
    if (form.current?.validateFields() === false) return;
    try {
      const method = options.method ?? 'GET';
      const reply = method === 'POST' && options.send === 'query'
        ? await dataProvider.call<unknown>('POST', options.endpoint, {}, query)
        : await dataProvider.call<unknown>(method, options.endpoint, query);
      const rows = reply && typeof reply === 'object' && Array.isArray((reply as { list?: unknown }).list)
        ? (reply as { list: Array<Record<string, unknown>> }).list
        : reply ? [reply as Record<string, unknown>] : [];
      setAnswer(rows);
    } catch (error) {
      reportError(error);
    }
  }, 1000);

  return (
    <div data-screen={screen.id}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      {all.tabs && (
        <div role="tablist" className={s.tabs} aria-label={t(screen.titleKey)}>
          {all.tabs.map((x) => (
            <Button key={x.id} role="tab" id={`tab-${x.id}`} aria-selected={x.id === tab} data-tab={x.id} appearance={x.id === tab ? 'primary' : 'secondary'} onClick={() => switchTab(x.id)}>
              {t(x.titleKey)}
            </Button>
          ))}
        </div>
      )}
      <EntityForm key={tab} ref={form} entity={screen.entity ?? screen.id} schema={options.query} uiSchema={options.uiSchema ?? {}} formData={query} onChange={setQuery} onSubmit={() => void run.run()} />
      <Button appearance="primary" data-action="search" disabled={run.locked} onClick={() => void run.run()} className={s.button}>
        {t(options.submitKey ?? 'engine.lookup.search')}
      </Button>
      <div data-region="result" className={s.result}>
        {answer !== undefined && !answer.length && (
          <MessageBar intent="info" layout="multiline"><MessageBarBody>{t(options.emptyKey ?? 'errors.notFound')}</MessageBarBody></MessageBar>
        )}
        {answer?.map((row, i) => (
          <Table key={i} size="small" className={s.table} data-row={i}>
            <TableBody>
              {options.result.map((f) => (
                <TableRow key={f.field} data-result-field={f.field}>
                  <TableCell className={s.label}><Body1>{t(f.titleKey)}</Body1></TableCell>
                  <TableCell className={s.value}>{show(read(row, f.field), f.format)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ))}
      </div>
    </div>
  );
}

const useStyles = makeStyles({
  tabs: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, margin: `${tokens.spacingVerticalM} 0` },
  button: { marginTop: tokens.spacingVerticalM },
  result: { marginTop: tokens.spacingVerticalL, display: 'grid', gap: tokens.spacingVerticalM },
  table: { border: `1px solid ${tokens.colorNeutralStroke2}`, tableLayout: 'fixed', width: '100%' },
  // Long codes and names wrap instead of widening the page on a phone.
  value: { overflowWrap: 'anywhere' },
  label: { width: '40%', color: tokens.colorNeutralForeground3 },
});
