/**
 * The `cards` presentation of a list screen (`"presentation": "cards"`): an applicant's own
 * records as cards instead of the staff grid — each with its reference number, its title and
 * subject, the sent date, the status as the machine labels it and the next step in plain
 * words (`workflow.<machine>.plain.<STATE>`), opening the record. At most a keyword and a
 * status filter; no export, no columns, no page-size choice.
 */
import { useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Select,
  Subtitle1,
  Title2,
  tokens,
} from '@fluentui/react-components';
import type { MachineDefinition, ScreenDefinition } from '../../generated/meta.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { ReferenceItem, StoredRecord } from '../../client/data-provider.ts';
import { useDataProvider, useGetList, useGetReferences } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { screens } from '../../definitions/client.ts';
import { entityScreenPath } from '../common/routes.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { stateTexts } from '../common/state-texts.ts';
import { formatDate, resolveColumnFormat, type FormatContext } from '../../shared/format.ts';
import { formatValue } from '../../shared/cell-formats.ts';
import { pickLocale } from '../../shared/locales.ts';
import { valueAt } from '../../shared/pointer.ts';

/** What a screen declares for its cards (screen.schema.json, options.card). */
export interface CardsOptions {
  titleField?: string;
  subtitleField?: string;
  dateField?: string;
  /** Grid filters offered above the cards: a keyword filter and an `eq` filter of the status at most. */
  filters?: string[];
  /** GET …?ids=1,2 → {list: [{id, referenceNumber}]} (the public-submit capability's references route). */
  referencesEndpoint?: string;
  emptyKey?: string;
  /** A screen (by id) to send a new one, and its link text. */
  createScreen?: string;
  createKey?: string;
}

const PAGE = 20;

const useStyles = makeStyles({
  root: { display: 'grid', gap: tokens.spacingVerticalL, maxWidth: '900px', minWidth: 0 },
  head: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'center' },
  grow: { flexGrow: 1 },
  filters: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-end' },
  filter: { minWidth: '200px', flexGrow: 1 },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalM },
  card: { padding: tokens.spacingHorizontalL, gap: tokens.spacingVerticalS },
  top: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  reference: { fontWeight: tokens.fontWeightSemibold, fontVariantNumeric: 'tabular-nums' },
  heading: { margin: 0 },
  title: { color: tokens.colorBrandForegroundLink, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground2 },
  next: { borderLeft: `3px solid ${tokens.colorBrandStroke1}`, paddingLeft: tokens.spacingHorizontalS },
});

/** The cards of `screen` (its entity's records the list search answers the user: their own, by scope). */
export default function CardList({
  screen,
  def,
  machine,
}: {
  screen: ScreenDefinition;
  def: EntityDefinition;
  machine: MachineDefinition | null;
}) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const ability = useAbility();
  const dataProvider = useDataProvider();
  const options = (screen.options?.card ?? {}) as CardsOptions;
  const [search, setSearch] = useSearchParams();
  const [shown, setShown] = useState(PAGE);
  const filters = def.grid.filters.filter((f) => options.filters?.includes(f.name));
  const keywordFilter = filters.find((f) => f.kind === 'keyword');
  const statusFilter = filters.find((f) => f.kind === 'eq' && f.field === '/status');
  const [typed, setTyped] = useState(keywordFilter ? (search.get(keywordFilter.name) ?? '') : '');
  const active = Object.fromEntries(
    filters.flatMap((f) => (search.get(f.name) ? [[f.name, search.get(f.name)!]] : [])),
  );
  const sort = def.grid.defaultSort;
  const list = useGetList(def.id, {
    filters: active,
    page: 0,
    itemsPerPage: shown,
    sortBy: sort.map((x) => x.field.slice(1)),
    sortDesc: sort.map((x) => x.desc === true),
  });
  const rows = list.data?.list ?? [];
  const ids = rows.map((r) => r.id).join(',');
  const references = useQuery({
    queryKey: ['references-of', options.referencesEndpoint, ids],
    queryFn: () => dataProvider.lookup({ endpoint: options.referencesEndpoint!, method: 'GET' }, { ids }),
    enabled: Boolean(options.referencesEndpoint && ids),
    staleTime: 60_000,
  });
  const referenceOf = useMemo(() => {
    const found = (references.data as { list?: Array<{ id: number; referenceNumber: string }> } | undefined)?.list;
    return new Map((found ?? []).map((r) => [r.id, r.referenceNumber]));
  }, [references.data]);

  // The subtitle is shown as the grid shows its column (a reference list's name, an enum's title…).
  const subtitleFormat = options.subtitleField
    ? resolveColumnFormat(
        def.grid.columns.find((c) => c.field === options.subtitleField) ?? {
          field: options.subtitleField,
          titleKey: '',
        },
        def.schema,
      )
    : undefined;
  const kinds = subtitleFormat?.reference ? [subtitleFormat.reference] : [];
  const referenceLists = useGetReferences(kinds);
  const items = referenceLists[0]?.data;
  const format: FormatContext = {
    locale: pickLocale(i18n.language),
    translate: (key) => t(key),
    reference: (kind, id) =>
      kind === subtitleFormat?.reference ? items?.find((x: ReferenceItem) => x.id === id) : undefined,
  };

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: true });
    setShown(PAGE);
  };
  const createScreen = options.createScreen;
  const createRoute = createScreen ? screens.find((x) => x.id === createScreen)?.route : undefined;
  const deadlineField = machine
    ? Object.values(machine.states).find((x) => x.deadline?.field)?.deadline?.field
    : undefined;

  return (
    <section data-screen={screen.id} data-entity={def.id} data-presentation="cards" className={s.root}>
      <div className={s.head}>
        <Title2 as="h1" className={s.grow}>
          {t(screen.titleKey)}
        </Title2>
        {createRoute && (
          <RouterLink to={createRoute} data-action="create" className={s.title}>
            {t(options.createKey ?? 'journey.cards.create')}
          </RouterLink>
        )}
      </div>
      {filters.length > 0 && (
        <form
          className={s.filters}
          data-region="card-filters"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            if (keywordFilter) setFilter(keywordFilter.name, typed.trim());
          }}
        >
          {keywordFilter && (
            <Field label={t('journey.cards.keyword')} className={s.filter}>
              <Input
                value={typed}
                onChange={(_e, d) => setTyped(d.value)}
                data-filter={keywordFilter.name}
                type="search"
              />
            </Field>
          )}
          {keywordFilter && (
            <Button type="submit" data-action="search">
              {t('journey.cards.search')}
            </Button>
          )}
          {statusFilter && machine && (
            <Field label={t('journey.cards.status')} className={s.filter}>
              <Select
                value={search.get(statusFilter.name) ?? ''}
                onChange={(_e, d) => setFilter(statusFilter.name, d.value)}
                data-filter={statusFilter.name}
              >
                <option value="">{t('journey.cards.anyStatus')}</option>
                {Object.keys(machine.states).map((state) => (
                  <option key={state} value={state}>
                    {stateTexts(t, machine.id, state, {}).label}
                  </option>
                ))}
              </Select>
            </Field>
          )}
        </form>
      )}
      {!list.data ? (
        <ScreenState screenId={screen.id} error={list.error} onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <MessageBar intent="info" data-region="empty">
          <MessageBarBody>{t(options.emptyKey ?? 'journey.cards.empty')}</MessageBarBody>
        </MessageBar>
      ) : (
        <ul className={s.list} data-region="cards">
          {rows.map((row) => (
            <li key={row.id}>
              <RecordCard
                row={row}
                path={entityScreenPath(def.id, ['detail'], row.id, ability, screen.route)}
                reference={referenceOf.get(row.id)}
                options={options}
                subtitle={
                  subtitleFormat && options.subtitleField
                    ? formatValue(valueAt(row, options.subtitleField), subtitleFormat.kind, subtitleFormat, format)
                    : undefined
                }
                machine={machine}
                deadlineField={deadlineField}
              />
            </li>
          ))}
        </ul>
      )}
      {list.data && list.data.total > rows.length && (
        <Button data-action="more" onClick={() => setShown((n) => n + PAGE)}>
          {t('journey.cards.more')}
        </Button>
      )}
    </section>
  );
}

/** One record as a card. */
function RecordCard({
  row,
  path,
  reference,
  options,
  subtitle,
  machine,
  deadlineField,
}: {
  row: StoredRecord;
  path: string | undefined;
  reference: string | undefined;
  options: CardsOptions;
  subtitle: string | undefined;
  machine: MachineDefinition | null;
  deadlineField: string | undefined;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const title = options.titleField ? valueAt(row, options.titleField) : undefined;
  const sent = valueAt(row, options.dateField ?? '/createdAt');
  const texts = machine
    ? stateTexts(t, machine.id, row.status, {
        since: row.updatedAt,
        deadline: deadlineField ? valueAt(row, deadlineField) : undefined,
      })
    : undefined;
  const heading = typeof title === 'string' && title ? title : t('journey.cards.untitled', { id: row.id });
  return (
    <Card className={s.card} data-card={row.id} data-status={row.status}>
      <div className={s.top}>
        <Caption1 className={s.reference} data-region="card-reference">
          {reference ?? `№ ${row.id}`}
        </Caption1>
        {texts && (
          <Badge
            appearance="tint"
            color={machine?.states[row.status]?.type === 'final' ? 'success' : 'brand'}
            data-region="card-status"
          >
            {texts.label}
          </Badge>
        )}
      </div>
      <Subtitle1 as="h2" className={s.heading}>
        {path ? (
          <RouterLink to={path} className={s.title} data-action="open">
            {heading}
          </RouterLink>
        ) : (
          heading
        )}
      </Subtitle1>
      {subtitle && <Body1 className={s.muted}>{subtitle}</Body1>}
      {sent ? (
        <Caption1 className={s.muted} data-region="card-sent">
          {t('journey.cards.sent', { date: formatDate(sent) })}
        </Caption1>
      ) : null}
      {texts && (
        <Body1 className={s.next} data-region="card-next">
          {texts.plain}
        </Body1>
      )}
    </Card>
  );
}
