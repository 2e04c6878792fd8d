import { useTranslation } from 'react-i18next';
import type { DashboardFilter } from '../../generated/meta.ts';
import { useGetReference } from '../../client/react/hooks.ts';
import { PeriodPicker } from './PeriodPicker.tsx';
import type { Label } from './label.ts';
import { useStyles } from './styles.ts';

/** One dashboard filter: a period picker, a month, or a list of choices / reference items. */
export function FilterControl({
  filter,
  value,
  onChange,
  label,
}: {
  filter: DashboardFilter;
  value: string;
  onChange(v: string): void;
  label: Label;
}) {
  const { t } = useTranslation();
  const s = useStyles();
  const items = useGetReference(filter.reference).data;
  if (filter.period) return <PeriodPicker filter={filter} value={value} onChange={onChange} />;
  const id = `filter-${filter.name}`;
  return (
    <label className={s.filter} htmlFor={id}>
      <span>{t(filter.titleKey)}</span>
      {filter.month ? (
        <input
          id={id}
          type="month"
          className={s.control}
          value={value}
          data-filter={filter.name}
          onChange={(e) => e.target.value && onChange(e.target.value)}
        />
      ) : (
        <select
          id={id}
          className={s.control}
          value={value}
          data-filter={filter.name}
          onChange={(e) => onChange(e.target.value)}
        >
          {!filter.required && <option value="">{t('engine.dashboard.all')}</option>}
          {filter.choices?.map((c) => (
            <option key={c.value} value={c.value}>
              {t(c.labelKey)}
            </option>
          ))}
          {items?.map((item) => (
            <option key={item.id} value={String(item.id)}>
              {label({ field: filter.name, titleKey: filter.titleKey, reference: filter.reference }, item.id)}
            </option>
          ))}
        </select>
      )}
    </label>
  );
}
