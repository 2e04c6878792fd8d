/**
 * The filter bar of a list: one labelled control per `grid.json` filter, each the control
 * its kind's entry in `filter-controls.tsx` names. Values are the query strings list-search takes.
 */
import { useTranslation } from 'react-i18next';
import { Field } from '@fluentui/react-components';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { Translate } from '../../shared/format.ts';
import type { GridFilter } from '../../shared/filter-kinds.ts';
import { FILTER_CONTROLS, useFilterStyles, type FilterValues } from './filter-controls.tsx';

export { FILTER_DEBOUNCE_MS } from './filter-controls.tsx';

export interface ListFiltersProps {
  def: EntityDefinition;
  /** Status names offered by a filter on /status. */
  statuses: readonly string[];
  values: FilterValues;
  /** Sets some filter values ('' clears one). */
  onChange(patch: FilterValues): void;
  /** Lay the controls out in one column (the small-screen panel). */
  stacked?: boolean;
}

/** Every filter of the grid, labelled. */
export default function ListFilters({ def, statuses, values, onChange, stacked }: ListFiltersProps) {
  const styles = useFilterStyles();
  const { t, i18n } = useTranslation();
  const translate: Translate = (key) => (i18n.exists(key) ? t(key) : undefined);
  const labelOf = (f: GridFilter): string => (f.titleKey ? t(f.titleKey) : f.name);
  return (
    <div className={stacked ? styles.stacked : styles.bar} role="search">
      {def.grid.filters.map((f) => {
        const { Control, labelsItself } = FILTER_CONTROLS[f.kind];
        const control = (
          <Control
            filter={f}
            def={def}
            statuses={statuses}
            values={values}
            onChange={onChange}
            label={labelOf(f)}
            translate={translate}
          />
        );
        return (
          <div key={f.name} data-filter={f.name} className={styles.control}>
            {labelsItself ? control : <Field label={labelOf(f)}>{control}</Field>}
          </div>
        );
      })}
    </div>
  );
}
