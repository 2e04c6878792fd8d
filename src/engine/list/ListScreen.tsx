/**
 * The `list` screen kind: one entity's records in a server-paged, server-sorted grid with
 * the filters its `grid.json` declares. Filters, sort and page live in the URL; the page
 * size is remembered per screen. A row opens the entity's detail screen, "create" its form
 * or wizard, "export" downloads the same filter and sort as an .xlsx. Nothing here names
 * an entity: everything comes from the definitions.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useDownloadClick } from '../common/useDownload.ts';
import { useTranslation } from 'react-i18next';
import {
  Button,
  CounterBadge,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, ArrowClockwiseRegular, ArrowDownloadRegular, MergeRegular } from '@fluentui/react-icons';
import type { MachineDefinition, ScreenDefinition } from '../../generated/meta.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { entityScreenPath } from '../common/routes.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import {
  useDataProvider,
  useEntity,
  useGetList,
  useGetReferences,
  useMachineOrNull,
} from '../../client/react/hooks.ts';
import { useApi } from '../../client/react/context.tsx';
import { useAbility } from '../../client/react/ability.tsx';
import { hiddenFieldsOf } from '../../shared/ability.ts';
import { HttpError, describeFailure } from '../../client/http.ts';
import type { ReferenceItem, StoredRecord } from '../../client/data-provider.ts';
import { pickLocale } from '../../shared/locales.ts';
import { resolveColumnFormat, type FormatContext, type Translate } from '../../shared/format.ts';
import {
  applyFilterPatch,
  effectiveSort,
  readListState,
  storePageSize,
  storedPageSize,
  toListParams,
  writeListState,
  type ListState,
  type SortItem,
} from './list-state.ts';
import ListGrid, { type StatusColor } from './ListGrid.tsx';
import { statusesOf, withoutHiddenColumns } from './list-definition.ts';
import { createQueryOf, fixedFiltersOf, withoutFixedFilters } from './fixed-filters.ts';
import { facetsOf, ListFacets } from './ListFacets.tsx';
import ListFilters from './ListFilters.tsx';
import CardList from './CardList.tsx';
import { SavedViews } from './SavedViews.tsx';
import { useSavedView } from './useSavedView.ts';
import ListPager, { pageCount } from './ListPager.tsx';
import { useMediaQuery } from '../common/useMediaQuery.ts';

/** The header's count shows up to this many, then "99999+". */
const LIST_COUNT_SHOWN = 99_999;

/** Below this width the filters move into a side panel. */
export const NARROW_QUERY = '(max-width: 640px)';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    minWidth: '0',
    padding: tokens.spacingHorizontalM,
  },
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
  },
  title: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  toolbar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  state: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalXXL,
  },
});

/** The list screen of `screen.entity`. */
export default function ListScreen({ screen }: { screen: ScreenDefinition }) {
  const entity = screen.entity ?? '';
  const definition = useEntity(entity || undefined);
  const workflow = definition.data?.manifest.workflow;
  // null, not undefined, for "no machine": a query may not resolve to undefined.
  const machine = useMachineOrNull(workflow, definition.isSuccess);
  const failed = definition.error ?? machine.error ?? (entity ? undefined : new Error('list screen without entity'));
  if (failed || !definition.data || machine.isPending) {
    return (
      <section data-screen={screen.id} data-entity={entity}>
        <ScreenState
          screenId={screen.id}
          error={failed}
          onRetry={() => void (definition.error ? definition.refetch() : machine.refetch())}
        />
      </section>
    );
  }
  // An applicant's own records read as cards (`"presentation": "cards"`), not the staff grid.
  if (screen.options?.presentation === 'cards')
    return <CardList screen={screen} def={definition.data} machine={machine.data ?? null} />;
  return <ListView screen={screen} def={definition.data} machine={machine.data ?? null} />;
}

function ListView({
  screen,
  def: fullDef,
  machine,
}: {
  screen: ScreenDefinition;
  def: EntityDefinition;
  machine: MachineDefinition | null;
}) {
  const styles = useStyles();
  const ability = useAbility();
  const fixed = useMemo(() => fixedFiltersOf(screen.options), [screen.options]);
  const facets = useMemo(() => facetsOf(screen.options), [screen.options]);
  const def = useMemo(
    () => withoutFixedFilters(withoutHiddenColumns(fullDef, hiddenFieldsOf(ability, fullDef.manifest.subject)), fixed),
    [fullDef, ability, fixed],
  );
  const { t, i18n } = useTranslation();
  const locale = pickLocale(i18n.language);
  const navigate = useNavigate();
  const dataProvider = useDataProvider();
  const narrow = useMediaQuery(NARROW_QUERY);
  const [searchParams, setSearchParams] = useSearchParams();
  const onDownload = useDownloadClick();
  const [itemsPerPage, setItemsPerPage] = useState(() => storedPageSize(screen.id));

  const state = useMemo(() => readListState(searchParams, def.grid), [searchParams, def]);
  const params = useMemo(() => {
    const asked = toListParams(state, itemsPerPage, def.grid);
    return { ...asked, filters: { ...asked.filters, ...fixed } };
  }, [state, itemsPerPage, def, fixed]);
  const list = useGetList(def.id, params);
  const saved = useSavedView(screen.id, def.grid, state, searchParams, setSearchParams);

  const update = useCallback(
    (change: (s: ListState) => ListState) => {
      setSearchParams((prev) => writeListState(change(readListState(prev, def.grid)), def.grid, prev));
    },
    [setSearchParams, def],
  );

  // A page past the end (rows were deleted, a link is old) falls back to the last page.
  const total = list.data?.total;
  useEffect(() => {
    if (total !== undefined && state.page > pageCount(total, itemsPerPage)) {
      setSearchParams(
        (prev) =>
          writeListState({ ...readListState(prev, def.grid), page: pageCount(total, itemsPerPage) }, def.grid, prev),
        { replace: true },
      );
    }
  }, [total, state.page, itemsPerPage, def, setSearchParams]);

  const translate = useMemo<Translate>(() => (key) => (i18n.exists(key) ? t(key) : undefined), [t, i18n]);
  const referenceKinds = useMemo(
    () => [
      ...new Set(
        def.grid.columns
          .map((c) => resolveColumnFormat(c, def.schema).reference)
          .filter((k): k is string => Boolean(k)),
      ),
    ],
    [def],
  );
  // Same keys as useGetReference, so cells and filter selects share one cache entry.
  const references = useGetReferences(referenceKinds);
  const referenceStamp = references.map((r) => r.dataUpdatedAt).join(',');
  const format = useMemo<FormatContext>(() => {
    const byKind = new Map<string, Map<number, ReferenceItem>>(
      referenceKinds.map((kind, i) => [kind, new Map((references[i]?.data ?? []).map((item) => [item.id, item]))]),
    );
    return { locale, translate, reference: (kind, id) => byKind.get(kind)?.get(id) };
    // `references` is a new array every render; referenceStamp changes exactly when a list's data does.
  }, [locale, translate, referenceKinds, referenceStamp]);

  const statuses = useMemo(() => statusesOf(def, machine), [def, machine]);
  const statusColor = useCallback(
    (status: string): StatusColor => {
      const state = machine?.states[status];
      if (!state) return 'informative';
      if (state.type === 'final') return 'success';
      return status === machine.initial ? 'informative' : 'warning';
    },
    [machine],
  );

  const hasDetail = entityScreenPath(def.id, ['detail'], 0, ability, screen.route) !== undefined;
  const createTo = entityScreenPath(def.id, ['form', 'wizard'], undefined, ability, screen.route);
  const createPath = createTo && `${createTo}${createQueryOf(fullDef, fixed)}`;
  const openRow = useCallback(
    (row: StoredRecord) => {
      const path = entityScreenPath(def.id, ['detail'], row.id, ability, screen.route);
      if (path) navigate(path);
    },
    [def, navigate, ability, screen.route],
  );
  const title = useCallback((key: string) => t(key), [t]);
  // A manifest's `merge`: selected rows become one new record (POST {base}/merge), then it opens.
  const { reportError, notifySuccess } = useApi();
  const canMerge = Boolean(def.manifest.merge) && ability.can('create', def.manifest.subject);
  const [selected, setSelected] = useState<number[]>([]);
  const [mergeHint, setMergeHint] = useState(false);
  const merge = async () => {
    if (selected.length < 2) {
      setMergeHint(true);
      return;
    }
    setMergeHint(false);
    try {
      const merged = await dataProvider.merge(def.id, selected);
      notifySuccess('engine.list.merged');
      const path = entityScreenPath(def.id, ['detail'], merged.id, ability, screen.route);
      if (path) navigate(path);
      else void list.refetch();
    } catch (error) {
      reportError(error);
    }
  };
  const sort = useMemo(() => effectiveSort(state.sort, def.grid), [state.sort, def]);
  const exportHref = dataProvider.exportUrl(def.id, {
    filters: { ...params.filters, lang: locale },
    sortBy: params.sortBy,
    sortDesc: params.sortDesc,
  });
  const hasFilters = Object.keys(state.filters).length > 0;

  const setFilters = (patch: Record<string, string>) =>
    update((s) => ({ ...s, filters: applyFilterPatch(s.filters, patch, def.grid), page: 1 }));
  const clearFilters = () => update((s) => ({ ...s, filters: {}, page: 1 }));
  const setSort = (next: SortItem[]) => update((s) => ({ ...s, sort: next, page: 1 }));
  const setPage = (page: number) => update((s) => ({ ...s, page }));
  const setPageSize = (size: number) => {
    storePageSize(screen.id, size);
    setItemsPerPage(size);
    update((s) => ({ ...s, page: 1 }));
  };

  const filters = (
    <ListFilters def={def} statuses={statuses} values={state.filters} onChange={setFilters} narrow={narrow} />
  );
  const failure = list.error
    ? list.error instanceof HttpError
      ? describeFailure(list.error.status, list.error.body, t)
      : t('engine.list.loadFailed')
    : undefined;

  return (
    <section className={styles.root} data-screen={screen.id} data-entity={def.id} aria-busy={list.isFetching}>
      <header className={styles.header}>
        <div className={styles.title}>
          <Title2 as="h1">{t(screen.titleKey)}</Title2>
          {Object.keys(fixed).length > 0 && list.data && (
            <CounterBadge
              count={list.data.total}
              overflowCount={LIST_COUNT_SHOWN}
              showZero
              appearance="filled"
              color="informative"
              data-state="count"
              aria-label={t('engine.list.count', { count: list.data.total })}
            />
          )}
        </div>
        <div className={styles.toolbar}>
          {hasFilters && (
            <Button appearance="subtle" data-action="clear-filters" onClick={clearFilters}>
              {t('engine.list.clearFilters')}
            </Button>
          )}
          {saved.enabled && (
            <SavedViews screen={screen.id} current={saved.viewId} snapshot={saved.snapshot} onApply={saved.apply} />
          )}
          <Button
            icon={<ArrowClockwiseRegular />}
            data-action="refresh"
            aria-label={t('engine.list.refresh')}
            title={t('engine.list.refresh')}
            onClick={() => void list.refetch()}
          />
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
          {canMerge && (
            <Button icon={<MergeRegular />} data-action="merge" onClick={() => void merge()}>
              {t('engine.list.merge')}
              {selected.length ? ` (${selected.length})` : ''}
            </Button>
          )}
          {createPath && (
            <Button
              appearance="primary"
              icon={<AddRegular />}
              data-action="create"
              onClick={() => navigate(createPath)}
            >
              {t('engine.list.create')}
            </Button>
          )}
        </div>
      </header>

      {filters}

      {facets.length > 0 && (
        <ListFacets
          screenId={screen.id}
          def={def}
          facets={facets}
          filters={params.filters}
          values={state.filters}
          onPick={setFilters}
        />
      )}

      {mergeHint && selected.length < 2 && (
        <MessageBar intent="warning" data-state="merge-hint">
          <MessageBarBody>{t('errors.mergeAtLeastTwo')}</MessageBarBody>
        </MessageBar>
      )}

      {failure && (
        <MessageBar intent="error" data-state="error">
          <MessageBarBody>{failure}</MessageBarBody>
          <MessageBarActions>
            <Button data-action="retry" onClick={() => void list.refetch()}>
              {t('engine.list.retry')}
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}

      {list.isPending && !failure && (
        <div className={styles.state} data-state="loading">
          <Spinner label={t('engine.list.loading')} />
        </div>
      )}

      {list.data && list.data.total === 0 && (
        <div className={styles.state} data-state="empty">
          <Text size={400}>{t('engine.list.empty')}</Text>
        </div>
      )}

      {list.data && list.data.total > 0 && (
        <>
          <ListGrid
            def={def}
            rows={list.data.list}
            sort={sort}
            onSortChange={setSort}
            {...(hasDetail ? { onOpen: openRow } : {})}
            format={format}
            statusColor={statusColor}
            title={title}
            {...(canMerge ? { onSelect: setSelected } : {})}
            statuses={statuses}
            layout={saved.layout}
            onLayoutChange={saved.setLayout}
          />
          <ListPager
            page={state.page}
            itemsPerPage={itemsPerPage}
            total={list.data.total}
            capped={list.data.totalCapped === true}
            onPage={setPage}
            onPageSize={setPageSize}
          />
        </>
      )}
    </section>
  );
}
