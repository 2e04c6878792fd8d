import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { Tab, TabList } from '../common/TabList.tsx';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { JSONSchema7 } from 'json-schema';
import type { ScreenProps } from '../types.ts';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider, useGetLookupStats, useGetReference } from '../../client/react/hooks.ts';
import { HttpError } from '../../client/http.ts';
import { useLockedAction } from '../common/useLockedAction.ts';
import { useMediaQuery } from '../common/useMediaQuery.ts';
import { statesKeyOf, type FormatContext } from '../../shared/format.ts';
import { manifests } from '../../definitions/client.ts';
import { formatValue, type DisplayFormat } from '../../shared/cell-formats.ts';
import { localizedName, pickLocale, type Locale } from '../../shared/locales.ts';
import { EntityForm, type EntityFormHandle } from '../form/EntityForm.tsx';
import { getAtPointer } from '../../shared/pointer.ts';
import { LookupStatus, type StatusPanelOptions } from './LookupStatus.tsx';
import { prefillOf } from './prefill.ts';
import { reversedRangeParams } from '../../shared/lookup-ranges.ts';

/** A phone: a wide table becomes one block per row, and a long row of tabs a drop-down. */
const NARROW = '(max-width: 640px)';
const WIDE = '(min-width: 641px)';

type ResultField = { field: string; titleKey: string; format?: DisplayFormat };

/**
 * One tab of a lookup screen: any of the screen's options replaced for this tab (its own query
 * form, endpoint, result fields…), e.g. by phone / by PINFL, or a product by tariff code,
 * barcode or MXIK.
 */
export type LookupTab = Partial<Omit<LookupOptions, 'tabs' | 'initialTab' | 'tabsFrom'>> & {
  id: string;
  titleKey: string;
};

/** What a lookup screen's `options` say: the query form, the endpoint and the result fields. */
export interface LookupOptions {
  endpoint: string;
  method?: 'GET' | 'POST';
  /** JSON Schema of the query (titles are i18n keys). */
  query: JSONSchema7;
  uiSchema?: Record<string, unknown>;
  /** Fields of the answer to show, in order. The answer is an object, or `{list}` of objects. */
  result: ResultField[];
  /** Shown when the answer is empty (null, `{list: []}`, or `{count: 0}`). */
  emptyKey?: string;
  submitKey?: string;
  /** POST only: send the query as query parameters with an empty body (e.g. list-search's filters). */
  send?: 'body' | 'query';
  // Additive options (public services, issue #6):
  /** Several query forms as tabs; each tab's values are the query. The first tab (or `initialTab`) is open first. */
  tabs?: LookupTab[];
  initialTab?: string;
  /** Tabs from a reference list (e.g. regions): the chosen item's id goes to the query as `param`; the first tab (`allKey`) sends none. */
  tabsFrom?: { reference: string; param: string; allKey: string; labelKey?: string };
  /** `table`: a list answer as one table with the result fields as columns (default: one block per row). */
  layout?: 'fields' | 'table';
  /** The empty answer opens a modal instead of an inline message. */
  emptyModal?: boolean;
  /** A non-empty answer opens a modal with this text instead of showing fields (e.g. "a document was sent to you"). */
  foundKey?: string;
  /** A note under the form (e.g. "full details after sign-in"). */
  noteKey?: string;
  /** Counters shown above the form, read from `statsEndpoint`. */
  statsEndpoint?: string;
  stats?: Array<{ field: string; titleKey: string }>;
  /** Each answered row as a status in plain words (the entity's machine): label, sentence, last change. */
  statusPanel?: StatusPanelOptions;
}

/** A result value in its display format; a dash when there is none. */
const show = (value: unknown, format: ResultField['format'], ctx: FormatContext, statesKey?: string): string =>
  value === null || value === undefined || value === ''
    ? '—'
    : formatValue(value, format ?? 'text', statesKey ? { statesKey } : {}, ctx);

/** Rows of an answer: `{list}`, a summary with `count` (empty at 0), an object, or nothing. */
const rowsOf = (reply: unknown): Array<Record<string, unknown>> => {
  if (!reply || typeof reply !== 'object') return [];
  const r = reply as { list?: unknown; count?: unknown };
  if (Array.isArray(r.list)) return r.list as Array<Record<string, unknown>>;
  if (typeof r.count === 'number' && r.count === 0) return [];
  return [reply as Record<string, unknown>];
};

/**
 * A small query form whose answer is shown below it (the public lookups: case tracking,
 * tracking of submissions, schedules, notice checks…). Everything comes from the screen's
 * options: tabs of query forms, the endpoint, the result fields, modals for an empty or a
 * found answer, counters. Field errors of a 400 land on the query's fields.
 */
export default function LookupScreen({ screen }: ScreenProps) {
  const { t, i18n } = useTranslation();
  const s = useStyles();
  const dataProvider = useDataProvider();
  const { reportError } = useApi();
  const all = screen.options as unknown as LookupOptions;
  const form = useRef<EntityFormHandle>(null);
  // A link may open a tab with its form filled in (`?tab=…&<field>=…`), and run it once (`run=1`).
  const [search] = useSearchParams();
  const [prefill] = useState(() =>
    prefillOf(search, all.tabs, all.initialTab ?? all.tabs?.[0]?.id ?? 'all', all.query),
  );
  const [tabId, setTabId] = useState<string>(prefill.tabId);
  const options: LookupOptions = { ...all, ...all.tabs?.find((x) => x.id === tabId) };
  const [query, setQuery] = useState<Record<string, unknown>>(prefill.query);
  const [serverErrors, setServerErrors] = useState<Record<string, string> | undefined>(undefined);
  const [answer, setAnswer] = useState<Array<Record<string, unknown>> | undefined>(undefined);
  const [modal, setModal] = useState<string | undefined>(undefined);
  const refTabs = useGetReference(options.tabsFrom?.reference);
  const stats = useGetLookupStats(options.statsEndpoint);
  // A status answered by a lookup is labelled as the screen's entity labels it (one label per state).
  const manifest = screen.entity ? manifests.get(screen.entity) : undefined;
  const statesKey = manifest ? statesKeyOf(manifest) : undefined;
  // A missing status text shows its key, as the lookups always have.
  const formatContext: FormatContext = { locale: pickLocale(i18n.language), translate: (key) => t(key) };

  const switchTab = (id: string) => {
    setTabId(id);
    if (all.tabs) setQuery({});
    setAnswer(undefined);
    setServerErrors(undefined);
  };

  const run = useLockedAction(async () => {
    // A new search replaces the old answer: it never stays under a query it does not belong to.
    setAnswer(undefined);
    if (form.current?.validateFields() === false) return;
    setServerErrors(undefined);
    const params: Record<string, unknown> = Object.fromEntries(
      Object.entries(query).filter(([, v]) => v !== undefined && v !== ''),
    );
    if (options.tabsFrom && tabId !== 'all') params[options.tabsFrom.param] = tabId;
    // A public lookup's range the wrong way round is said on its field, as the server would say it.
    const declared = manifest?.publicLookups?.find(
      (l) => options.endpoint === `/api/public-lookup/${manifest.id}/${l.name}`,
    );
    const reversed = declared ? reversedRangeParams(declared.by, params) : [];
    if (reversed.length) {
      setServerErrors(Object.fromEntries(reversed.map((p) => [`/${p}`, t('fixes.rangeReversed')])));
      return;
    }
    try {
      const reply = await dataProvider.lookup(options, params);
      const rows = rowsOf(reply);
      setAnswer(rows);
      if (!rows.length && options.emptyModal) setModal(options.emptyKey ?? 'errors.notFound');
      if (rows.length && options.foundKey) setModal(options.foundKey);
      if (options.statsEndpoint) void stats.refetch();
    } catch (error) {
      if (error instanceof HttpError && error.fieldErrors) setServerErrors(error.fieldErrors);
      reportError(error);
    }
  }, 1000);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the values the link brought
  useEffect(() => {
    if (prefill.run) void run.run();
  }, []);

  const tabList = all.tabs
    ? all.tabs.map((x) => ({ id: x.id, label: t(x.titleKey) }))
    : options.tabsFrom
      ? [
          { id: 'all', label: t(options.tabsFrom.allKey) },
          ...(refTabs.data ?? []).map((r) => ({ id: String(r.id), label: localizedName(r, i18n.language as Locale) })),
        ]
      : undefined;
  const showRows = answer && answer.length > 0 && !options.foundKey;
  // On a phone a wide table becomes one block per row, and a long row of tabs a drop-down.
  const narrow = useMediaQuery(NARROW);
  const asTable = options.layout === 'table' && !narrow;
  // Both are drawn and CSS shows one: switched by script after the page was adopted, a
  // prerendered phone page would jump when the tall row of tabs became a drop-down.
  const tabsAsSelect = (tabList?.length ?? 0) > 4;

  return (
    <div data-screen={screen.id} className={s.root}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      {options.stats && (
        // Busy until the counters come from the server: a prerendered page carries the build's.
        <dl className={s.stats} data-region="stats" aria-busy={!stats.isFetchedAfterMount || stats.isFetching}>
          {options.stats.map((c) => (
            <div key={c.field} className={s.stat} data-stat={c.field}>
              <dt className={s.statLabel}>{t(c.titleKey)}</dt>
              <dd className={s.statValue}>{stats.data?.[c.field] ?? '—'}</dd>
            </div>
          ))}
        </dl>
      )}
      {tabList && tabsAsSelect && (
        <Field
          label={t(options.tabsFrom?.labelKey ?? 'engine.lookup.section')}
          className={mergeClasses(s.tabs, s.onlyNarrow)}
        >
          <Select
            value={tabId}
            onChange={(_e, d) => switchTab(d.value)}
            data-region="tabs"
            root={{ className: s.select }}
          >
            {tabList.map((x) => (
              <option key={x.id} value={x.id}>
                {x.label}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {tabList && (
        <TabList
          selectedValue={tabId}
          onTabSelect={(_e, d) => switchTab(String(d.value))}
          className={tabsAsSelect ? mergeClasses(s.tabs, s.onlyWide) : s.tabs}
          data-region="tabs"
          aria-label={t(screen.titleKey)}
        >
          {tabList.map((x) => (
            <Tab key={x.id} value={x.id} data-tab={x.id}>
              {x.label}
            </Tab>
          ))}
        </TabList>
      )}
      <EntityForm
        key={all.tabs ? tabId : 'query'}
        ref={form}
        entity={screen.entity ?? screen.id}
        schema={options.query}
        uiSchema={options.uiSchema ?? {}}
        formData={query}
        onChange={setQuery}
        onSubmit={() => void run.run()}
        // A refused query (the form's own check, before run) leaves no old answer under it either.
        onError={() => setAnswer(undefined)}
        serverErrors={serverErrors}
      >
        {/* The form's own submit button: Enter in a field searches. */}
        <Button appearance="primary" type="submit" data-action="search" disabled={run.locked} className={s.button}>
          {t(options.submitKey ?? 'engine.lookup.search')}
        </Button>
      </EntityForm>
      {options.noteKey && (
        <Body1 as="p" block className={s.note}>
          {t(options.noteKey)}
        </Body1>
      )}
      <div data-region="result" className={s.result} aria-live="polite">
        {answer !== undefined && !answer.length && !options.emptyModal && (
          <MessageBar intent="info" layout="multiline">
            <MessageBarBody>{t(options.emptyKey ?? 'errors.notFound')}</MessageBarBody>
          </MessageBar>
        )}
        {showRows && asTable && (
          <div className={s.scroll}>
            <Table size="small" className={s.table}>
              <TableHeader>
                <TableRow>
                  {options.result.map((f) => (
                    <TableHeaderCell key={f.field}>{t(f.titleKey)}</TableHeaderCell>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {answer.map((row, i) => (
                  <TableRow key={i} data-row={i}>
                    {options.result.map((f) => (
                      <TableCell key={f.field} data-result-field={f.field}>
                        {show(getAtPointer(row, f.field), f.format, formatContext, statesKey)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
        {showRows &&
          options.statusPanel &&
          manifest?.workflow &&
          answer.map((row, i) => (
            <LookupStatus key={i} row={row} options={options.statusPanel!} machine={manifest.workflow!} />
          ))}
        {showRows &&
          !asTable &&
          options.result.length > 0 &&
          answer.map((row, i) => (
            <Table key={i} size="small" className={s.blockTable} data-row={i}>
              <TableBody>
                {options.result.map((f) => (
                  <TableRow key={f.field} data-result-field={f.field}>
                    <TableCell className={s.label}>
                      <Body1>{t(f.titleKey)}</Body1>
                    </TableCell>
                    <TableCell className={s.value}>
                      {show(getAtPointer(row, f.field), f.format, formatContext, statesKey)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ))}
      </div>
      {/* Mounted only while open: a closed Dialog still starts Tabster's modal support, which
          leaves focusable aria-hidden sentinels in the page. */}
      {modal !== undefined && (
        <Dialog open onOpenChange={(_e, d) => !d.open && setModal(undefined)}>
          <DialogSurface data-dialog="lookup-result" data-found={answer && answer.length > 0 ? 'true' : 'false'}>
            <DialogBody>
              <DialogTitle>{t(screen.titleKey)}</DialogTitle>
              <DialogContent>{modal ? t(modal) : ''}</DialogContent>
              <DialogActions>
                <Button appearance="primary" data-action="close" onClick={() => setModal(undefined)}>
                  {t('engine.lookup.close')}
                </Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      )}
    </div>
  );
}

const useStyles = makeStyles({
  root: { maxWidth: '1100px', margin: '0 auto', minWidth: 0 },
  button: { marginTop: tokens.spacingVerticalM },
  note: { marginTop: tokens.spacingVerticalM, color: tokens.colorNeutralForeground2 },
  result: { marginTop: tokens.spacingVerticalL, display: 'grid', gap: tokens.spacingVerticalM, minWidth: 0 },
  scroll: { overflowX: 'auto', maxWidth: '100%' },
  table: { border: `1px solid ${tokens.colorNeutralStroke2}` },
  blockTable: { border: `1px solid ${tokens.colorNeutralStroke2}`, tableLayout: 'fixed', width: '100%' },
  // Long codes and names wrap instead of widening the page on a phone.
  value: { overflowWrap: 'anywhere' },
  label: { width: '40%', color: tokens.colorNeutralForeground2 },
  onlyNarrow: { [`@media ${WIDE}`]: { display: 'none' } },
  onlyWide: { [`@media ${NARROW}`]: { display: 'none' } },
  // Long names (the committee's central office) wrap inside their tab instead of widening the page.
  tabs: {
    flexWrap: 'wrap',
    marginBottom: tokens.spacingVerticalM,
    maxWidth: '100%',
    '& .fui-Tab': { maxWidth: '100%', minWidth: 0 },
    '& .fui-Tab__content': { whiteSpace: 'normal', textAlign: 'start', overflowWrap: 'anywhere' },
  },
  // A long option (the committee's full name) must not widen the page.
  select: {
    width: '100%',
    maxWidth: '100%',
    minWidth: 0,
    '& select': { width: '100%', maxWidth: '100%', textOverflow: 'ellipsis' },
  },
  stats: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))',
    gap: tokens.spacingHorizontalM,
    margin: `0 0 ${tokens.spacingVerticalL}`,
  },
  stat: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingVerticalS,
  },
  statLabel: { color: tokens.colorNeutralForeground2 },
  statValue: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
});
