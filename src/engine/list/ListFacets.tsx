/**
 * A list screen's `facets` (screen options): above the grid, each value of one field with its
 * count, from an aggregate of the entity grouped by that field — asked with the list's other
 * filters, so a value's count is the list's total once it is chosen. Each value is a link that
 * sets the facet's `in` filter; the records without a value set its `empty` filter.
 */
import { Link, makeStyles, Text, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useGetOne, useGetPanelRows } from '../../client/react/hooks.ts';
import { manifests } from '../../definitions/client.ts';
import { valueAt } from '../../shared/pointer.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';

/** One facet of the screen options. */
export interface FacetOption {
  filter: string;
  aggregate: string;
  emptyFilter?: string;
}

/** The screen's facets, or none when the options have none. */
export const facetsOf = (options: Record<string, unknown> | undefined): FacetOption[] =>
  Array.isArray(options?.facets) ? (options.facets as FacetOption[]) : [];

/**
 * The query of a facet's counts: the list's filters without the facet's own two, so choosing
 * a value does not change the counts beside it.
 * @example facetQuery({ departmentIds: '3', statusId: 'SEEN' }, { filter: 'departmentIds', aggregate: 'a' }) // { statusId: 'SEEN' }
 */
export function facetQuery(filters: Record<string, unknown>, facet: FacetOption): Record<string, unknown> {
  const out = { ...filters };
  delete out[facet.filter];
  if (facet.emptyFilter) delete out[facet.emptyFilter];
  return out;
}

const useStyles = makeStyles({
  facet: { display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: tokens.spacingHorizontalM },
  strip: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'baseline',
    gap: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  count: { color: tokens.colorNeutralForeground3, marginLeft: tokens.spacingHorizontalXS },
  current: { fontWeight: tokens.fontWeightSemibold },
});

/** A record's label (the manifest's labelField), else its number. */
function RecordLabel({ entity, id }: { entity: string; id: number }) {
  const record = useGetOne(entity, id, { staleTime: 60_000 });
  const field = manifests.get(entity)?.labelField;
  const label = field && record.data ? valueAt(record.data, field) : undefined;
  return <>{label === undefined || label === null || label === '' ? `#${id}` : String(label)}</>;
}

/** The facets of a list: one strip per facet. */
export function ListFacets({
  screenId,
  def,
  facets,
  filters,
  values,
  onPick,
}: {
  screenId: string;
  def: EntityDefinition;
  facets: FacetOption[];
  /** What the list asks with (its filters and the screen's fixed ones). */
  filters: Record<string, unknown>;
  /** The filters the user set (to mark the chosen value). */
  values: Record<string, string>;
  onPick(patch: Record<string, string>): void;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const answers = useGetPanelRows(
    `facets:${screenId}`,
    facets.map((facet) => ({
      id: facet.filter,
      source: { endpoint: `/api${def.manifest.base}/aggregate/${facet.aggregate}` },
      query: facetQuery(filters, facet),
    })),
  );
  return (
    <>
      {facets.map((facet, i) => {
        const filter = def.grid.filters.find((f) => f.name === facet.filter);
        if (!filter?.field) return null;
        const key = filter.field.split('/').at(-1)!;
        const fieldSchema = valueAt(def.schema, `/properties/${key}`) as
          | { entityRef?: { entity?: string } }
          | undefined;
        const entity = fieldSchema?.entityRef?.entity;
        const rows = [...(answers[i]?.data?.list ?? [])].sort((a, b) => Number(b.count) - Number(a.count));
        if (!rows.length) return null;
        const emptyTitle = def.grid.filters.find((f) => f.name === facet.emptyFilter)?.titleKey;
        return (
          <nav key={facet.filter} className={s.facet} aria-label={filter.titleKey ? t(filter.titleKey) : facet.filter}>
            <Text weight="semibold" aria-hidden>
              {filter.titleKey ? t(filter.titleKey) : facet.filter}
            </Text>
            <ul className={s.strip} data-facet={facet.filter}>
              {rows.map((row) => {
                const value = row[key];
                const none = value === null || value === undefined;
                if (none && !facet.emptyFilter) return null;
                const current = none ? values[facet.emptyFilter!] === 'true' : values[facet.filter] === String(value);
                const patch = none
                  ? { [facet.filter]: '', [facet.emptyFilter!]: 'true' }
                  : { [facet.filter]: String(value), ...(facet.emptyFilter ? { [facet.emptyFilter]: '' } : {}) };
                return (
                  <li key={none ? '' : String(value)} data-value={none ? '' : String(value)}>
                    <Link
                      className={current ? s.current : undefined}
                      aria-current={current ? 'true' : undefined}
                      onClick={() => onPick(patch)}
                    >
                      {none ? (
                        emptyTitle ? (
                          t(emptyTitle)
                        ) : (
                          '—'
                        )
                      ) : entity && typeof value === 'number' ? (
                        <RecordLabel entity={entity} id={value} />
                      ) : (
                        String(value)
                      )}
                    </Link>
                    <span className={s.count} data-count>
                      {String(row.count)}
                    </span>
                  </li>
                );
              })}
            </ul>
          </nav>
        );
      })}
    </>
  );
}
