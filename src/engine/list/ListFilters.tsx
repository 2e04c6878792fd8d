/**
 * The filter bar of a list: the keyword box and the primary filters of `grid.json` (at most
 * four, `src/shared/filter-bar.ts`), a "More filters (n)" button that opens the rest in a panel
 * and says how many of them are in use, and the filters in use as removable chips. On a small
 * screen every filter moves into a side panel behind one "Filters (n)" button. Each control is
 * its kind's entry in `filter-controls.tsx`; values are the query strings list-search takes.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  Field,
  OverlayDrawer,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { ChevronDownRegular, ChevronUpRegular, DismissRegular, FilterRegular } from '@fluentui/react-icons';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { Translate } from '../../shared/format.ts';
import type { GridFilter } from '../../shared/filter-kinds.ts';
import { splitFilters } from '../../shared/filter-bar.ts';
import { FILTER_CONTROLS, useFilterStyles, type FilterValues } from './filter-controls.tsx';
import { FilterChips, filterActive } from './FilterChips.tsx';

export { FILTER_DEBOUNCE_MS } from './filter-controls.tsx';

export interface ListFiltersProps {
  def: EntityDefinition;
  /** Status names offered by a filter on /status. */
  statuses: readonly string[];
  values: FilterValues;
  /** Sets some filter values ('' clears one). */
  onChange(patch: FilterValues): void;
  /** A small screen: every filter in a side panel. */
  narrow?: boolean;
}

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  more: {
    padding: tokens.spacingHorizontalM,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
});

/** The bar, the "More filters" panel and the chips. */
export default function ListFilters({ def, statuses, values, onChange, narrow }: ListFiltersProps) {
  const filterStyles = useFilterStyles();
  const styles = useStyles();
  const { t, i18n } = useTranslation();
  const [moreOpen, setMoreOpen] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  const moreId = useId();
  const translate: Translate = (key) => (i18n.exists(key) ? t(key) : undefined);
  const labelOf = (f: GridFilter): string => (f.titleKey ? t(f.titleKey) : f.name);
  const { shown, more } = splitFilters(def.grid.filters);
  const controls = (filters: readonly GridFilter[]) =>
    filters.map((f) => {
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
        <div key={f.name} data-filter={f.name} className={filterStyles.control}>
          {labelsItself ? control : <Field label={labelOf(f)}>{control}</Field>}
        </div>
      );
    });
  const count = (filters: readonly GridFilter[]) => filters.filter((f) => filterActive(f, values)).length;
  const chips = <FilterChips def={def} values={values} labelOf={labelOf} translate={translate} onChange={onChange} />;

  if (narrow) {
    const inUse = count(def.grid.filters);
    return (
      <div className={styles.root}>
        <div>
          <Button icon={<FilterRegular />} data-action="filters" onClick={() => setPanelOpen(true)}>
            {inUse ? t('list.filtersCount', { count: inUse }) : t('engine.list.filters')}
          </Button>
        </div>
        {chips}
        <OverlayDrawer position="end" open={panelOpen} onOpenChange={(_, d) => setPanelOpen(d.open)}>
          <DrawerHeader>
            <DrawerHeaderTitle
              action={
                <Button
                  appearance="subtle"
                  icon={<DismissRegular />}
                  aria-label={t('engine.list.close')}
                  data-action="close-filters"
                  onClick={() => setPanelOpen(false)}
                />
              }
            >
              {t('engine.list.filters')}
            </DrawerHeaderTitle>
          </DrawerHeader>
          <DrawerBody>
            <div className={filterStyles.stacked} role="search">
              {controls(def.grid.filters)}
            </div>
          </DrawerBody>
        </OverlayDrawer>
      </div>
    );
  }

  const hiddenInUse = count(more);
  return (
    <div className={styles.root}>
      <div className={filterStyles.bar} role="search">
        {controls(shown)}
        {more.length > 0 && (
          <Button
            appearance={hiddenInUse ? 'primary' : 'secondary'}
            icon={moreOpen ? <ChevronUpRegular /> : <ChevronDownRegular />}
            iconPosition="after"
            data-action="more-filters"
            aria-expanded={moreOpen}
            aria-controls={moreId}
            onClick={() => setMoreOpen((o) => !o)}
          >
            {hiddenInUse ? t('list.moreFiltersCount', { count: hiddenInUse }) : t('list.moreFilters')}
          </Button>
        )}
      </div>
      {moreOpen && more.length > 0 && (
        <div id={moreId} className={mergeClasses(filterStyles.bar, styles.more)} data-panel="more-filters">
          {controls(more)}
        </div>
      )}
      {chips}
    </div>
  );
}
