/**
 * The filters in use, one removable chip each ("Status: Done ×"), so a filter set behind
 * "More filters" is still seen and can be taken off in one click.
 */
import { useTranslation } from 'react-i18next';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { JSONSchema7 } from 'json-schema';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { useGetReference } from '../../client/react/hooks.ts';
import { localizedName, pickLocale } from '../../shared/locales.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import { enumOptions, formatNumber, statesKeyOf, statusLabel, type Translate } from '../../shared/format.ts';
import type { GridFilter } from '../../shared/filter-kinds.ts';
import { isoToDisplay } from '../form/dates.ts';
import { filterParamNames } from './list-state.ts';
import type { FilterValues } from './filter-controls.tsx';

const useStyles = makeStyles({
  chips: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalXS,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  chip: {
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    maxWidth: '100%',
    fontWeight: tokens.fontWeightRegular,
  },
});

/** Whether a filter has a value in `values`. */
export const filterActive = (f: GridFilter, values: FilterValues): boolean =>
  filterParamNames(f).some((name) => (values[name] ?? '') !== '');

interface ChipProps {
  filter: GridFilter;
  def: EntityDefinition;
  values: FilterValues;
  label: string;
  translate: Translate;
  onRemove(): void;
}

/** The names of reference items, in the language shown (the filter's select shares the cache). */
function useReferenceNames(filter: GridFilter, values: FilterValues): (id: string) => string {
  const { i18n } = useTranslation();
  const locale = pickLocale(i18n.language);
  const parentValue = filter.parentFilter ? values[filter.parentFilter] : undefined;
  const parent = filter.parentFilter ? (parentValue ? Number(parentValue.split(',')[0]) : null) : undefined;
  const { data } = useGetReference(filter.reference, parent);
  return (id) => {
    const item = data?.find((x) => String(x.id) === id);
    return item ? localizedName(item, locale) : id;
  };
}

function Chip({ filter, def, values, label, translate, onRemove }: ChipProps) {
  const styles = useStyles();
  const { t, i18n } = useTranslation();
  const locale = pickLocale(i18n.language);
  const referenceName = useReferenceNames(filter, values);
  const field: JSONSchema7 | undefined = filter.field ? resolveFieldSchema(def.schema, filter.field) : undefined;
  const one = (v: string): string => {
    if (filter.reference) return referenceName(v);
    if (filter.field === '/status') return statusLabel(v, translate, statesKeyOf(def.manifest));
    const option = enumOptions(field)?.find((o) => String(o.value) === v);
    if (option) return (option.titleKey && translate(option.titleKey)) || v;
    return v;
  };
  const bound = (v: string | undefined): string | undefined =>
    v ? (filter.kind === 'dateRange' ? (isoToDisplay(v) ?? v) : formatNumber(v, locale)) : undefined;
  let shown: string;
  if (filter.kind === 'dateRange' || filter.kind === 'range') {
    const from = bound(values[`${filter.name}From`] ?? values[filter.name]);
    const to = bound(values[`${filter.name}To`] ?? values[filter.name]);
    shown =
      from && to
        ? from === to
          ? from
          : `${from} – ${to}`
        : from
          ? `${t('engine.list.from')} ${from}`
          : `${t('engine.list.to')} ${to ?? ''}`;
  } else if (
    filter.kind === 'bool' ||
    filter.kind === 'currentUser' ||
    filter.kind === 'myUnit' ||
    filter.kind === 'empty'
  )
    shown = values[filter.name] === 'true' ? t('engine.list.yes') : t('engine.list.no');
  else if (filter.kind === 'in')
    shown = (values[filter.name] ?? '')
      .split(',')
      .map((v) => one(v))
      .join(', ');
  else if (filter.kind === 'keyword') shown = `“${values[filter.name] ?? ''}”`;
  else shown = one(values[filter.name] ?? '');
  return (
    <li>
      <Button
        size="small"
        className={styles.chip}
        icon={<DismissRegular />}
        iconPosition="after"
        data-chip={filter.name}
        aria-label={t('list.removeFilter', { name: `${label}: ${shown}` })}
        onClick={onRemove}
      >
        {label}: {shown}
      </Button>
    </li>
  );
}

export interface FilterChipsProps {
  def: EntityDefinition;
  values: FilterValues;
  labelOf(f: GridFilter): string;
  translate: Translate;
  onChange(patch: FilterValues): void;
}

/** One chip per filter in use; nothing when none is. */
export function FilterChips({ def, values, labelOf, translate, onChange }: FilterChipsProps) {
  const styles = useStyles();
  const { t } = useTranslation();
  const active = def.grid.filters.filter((f) => filterActive(f, values));
  if (!active.length) return null;
  return (
    <ul className={styles.chips} aria-label={t('list.activeFilters')} data-chips>
      {active.map((f) => (
        <Chip
          key={f.name}
          filter={f}
          def={def}
          values={values}
          label={labelOf(f)}
          translate={translate}
          onRemove={() => onChange(Object.fromEntries(filterParamNames(f).map((name) => [name, ''])))}
        />
      ))}
    </ul>
  );
}
