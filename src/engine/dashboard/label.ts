import { useTranslation } from 'react-i18next';
import type { DashboardField } from '../../generated/meta.ts';
import { useGetReference } from '../../client/react/hooks.ts';
import { pickLocale } from '../../shared/locales.ts';
import { formatCell, formatValue, type DisplayFormat } from '../../shared/cell-formats.ts';
import type { FormatContext } from '../../shared/format.ts';

/** Shows one value of a field as text. */
export type Label = (field: DashboardField | undefined, value: unknown) => string;

/** A labeller of values by a field's format and reference list ('—' for no value). */
export function useFieldLabel(fields: Array<DashboardField | undefined>): Label {
  const { t, i18n } = useTranslation();
  const locale = pickLocale(i18n.language);
  const kinds = [...new Set(fields.map((f) => f?.reference).filter((k): k is string => Boolean(k)))];
  // Reference lists are few and cached for ten minutes; one hook per distinct kind, in a stable order.
  const lists = kinds.map((kind) => ({ kind, query: useGetReference(kind) }));
  const ctx: FormatContext = {
    locale,
    translate: (key) => (i18n.exists(key) ? t(key) : undefined),
    reference: (kind, id) => lists.find((l) => l.kind === kind)?.query.data?.find((i) => i.id === id),
  };
  return (field, value) => {
    if (value === null || value === undefined || value === '') return '—';
    // A field with a reference list names its values from it, whatever its format.
    if (field?.reference) return formatValue(value, 'reference', { reference: field.reference }, ctx);
    const kind = (field?.format ?? 'text') as DisplayFormat;
    // A list of values (a user's roles) is named item by item.
    return field?.valueLabels || Array.isArray(value)
      ? formatCell(value, { kind, ...(field?.valueLabels ? { valueLabels: field.valueLabels } : {}) }, ctx) || '—'
      : formatValue(value, kind, {}, ctx);
  };
}
