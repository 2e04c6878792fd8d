/**
 * How list cells are shown (spec §9): dates DD.MM.YYYY, date-times DD.MM.YYYY hh:mm in
 * Tashkent time, UZS money without decimals, numbers grouped with spaces, booleans as
 * yes/no, statuses, enum titles and reference names translated. Pure and isomorphic: the
 * grid and the server's XLSX export follow the same rules from this one module; which rule
 * a format uses is its entry in `cell-formats.ts`.
 */
import type { JSONSchema7 } from 'json-schema';
import type { GridDefinition } from '../generated/meta.ts';
import { resolveFieldSchema, scalarType } from './field-schema.ts';
import { localizedName, type Locale, type LocalizedNames } from './locales.ts';
import { BUSINESS_UTC_OFFSET_MINUTES } from './time-zone.ts';
import { pointerSegments } from './pointer.ts';
import { valueLabelsOf } from './record-title.ts';

export type GridColumn = GridDefinition['columns'][number];
export type CellKind = NonNullable<GridColumn['format']>;

/** One choice of an enum field: its stored value and the i18n key of its title. */
export interface EnumOption {
  value: string | number | boolean;
  titleKey?: string;
}

/** How one column is formatted, resolved once from the grid and the record schema. */
export interface ColumnFormat {
  kind: CellKind;
  /** Reference list kind, for `reference`. */
  reference?: string;
  /** Choices, for `enum`. */
  options?: EnumOption[];
  /** Where the state labels are, for `status` (see {@link statesKeyOf}). */
  statesKey?: string;
  /** The key prefix of the values' texts, for `label` (the field's `valueLabels`). */
  valueLabels?: string;
}

/** Looks a key up; `undefined` when the key is missing (so callers can fall back). */
export type Translate = (key: string) => string | undefined;

/** What formatting needs besides the value. */
export interface FormatContext {
  locale: Locale;
  translate: Translate;
  /** A reference item by list kind and id, when loaded. */
  reference?: (kind: string, id: number) => LocalizedNames | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The choices of an enum field: `oneOf`/`anyOf` of `const` (with `title` as i18n key) or a
 * plain `enum`; for an array field, the choices of its items. Undefined when not an enum.
 * @example enumOptions({ oneOf: [{ const: 'A', title: 'x.a' }] }) // [{ value: 'A', titleKey: 'x.a' }]
 */
export function enumOptions(field: JSONSchema7 | undefined): EnumOption[] | undefined {
  if (!field) return undefined;
  if (scalarType(field) === 'array' && isRecord(field.items)) return enumOptions(field.items as JSONSchema7);
  const alternatives = (field.oneOf ?? field.anyOf) as JSONSchema7[] | undefined;
  if (alternatives?.length && alternatives.every((o) => isRecord(o) && o.const !== undefined)) {
    return alternatives.map((o) => ({
      value: o.const as EnumOption['value'],
      ...(o.title ? { titleKey: o.title } : {}),
    }));
  }
  if (field.enum?.length) return field.enum.filter((v) => v !== null).map((v) => ({ value: v as EnumOption['value'] }));
  return undefined;
}

/** The reference list a field schema names (`"reference": {"list": …}`), if any. */
export function referenceListOf(field: JSONSchema7 | undefined): string | undefined {
  const target = field && scalarType(field) === 'array' && isRecord(field.items) ? (field.items as JSONSchema7) : field;
  const ref = (target as { reference?: { list?: unknown } } | undefined)?.reference;
  return typeof ref?.list === 'string' ? ref.list : undefined;
}

/**
 * Resolves how a column is shown: the grid's `format` when given, otherwise derived from
 * the field's schema (date/date-time formats, numbers, booleans, enums, reference lists).
 * The record id and unknown fields are plain text (an id is not a quantity to group).
 */
export function resolveColumnFormat(column: GridColumn, schema: JSONSchema7, statesKey?: string): ColumnFormat {
  const field = resolveFieldSchema(schema, column.field);
  const reference = column.reference ?? referenceListOf(field);
  const options = enumOptions(field);
  const kind: CellKind = column.format ?? deriveKind(column.field, field, reference, options);
  return {
    kind,
    ...(kind === 'reference' && reference ? { reference } : {}),
    ...(kind === 'enum' ? { options: options ?? [] } : {}),
    ...(kind === 'status' && statesKey ? { statesKey } : {}),
    ...(kind === 'label' && valueLabelsOf(field) ? { valueLabels: valueLabelsOf(field) } : {}),
  };
}

function deriveKind(
  pointer: string,
  field: JSONSchema7 | undefined,
  reference: string | undefined,
  options: EnumOption[] | undefined,
): CellKind {
  if (pointer === '/status') return 'status';
  if (!field || pointer === '/id') return 'text';
  if (reference) return 'reference';
  if (options) return 'enum';
  if (valueLabelsOf(field)) return 'label';
  const item = scalarType(field) === 'array' && isRecord(field.items) ? (field.items as JSONSchema7) : field;
  if (item.format === 'date') return 'date';
  if (item.format === 'date-time') return 'datetime';
  const type = scalarType(item);
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  return 'text';
}

/** Wall-clock parts of an instant in Tashkent. */
export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * The Tashkent wall-clock time of an instant: UTC+5, no daylight saving (business-day.ts), so
 * plain arithmetic — an `Intl.DateTimeFormat` with a time zone would load the browser's time
 * zone data on a page's first use, a long pause on a phone.
 */
export function tashkentParts(instant: Date): ZonedParts {
  const local = new Date(instant.getTime() + BUSINESS_UTC_OFFSET_MINUTES * 60_000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

const pad = (n: number): string => String(n).padStart(2, '0');
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses a stored date (`YYYY-MM-DD`) or instant (ISO string, Date) into calendar parts; null when unreadable. */
export function dateParts(value: unknown): ZonedParts | null {
  if (typeof value === 'string') {
    const m = DATE_ONLY.exec(value);
    if (m) return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: 0, minute: 0, second: 0 };
  }
  if (typeof value !== 'string' && !(value instanceof Date)) return null;
  const instant = value instanceof Date ? value : new Date(value);
  return Number.isNaN(instant.getTime()) ? null : tashkentParts(instant);
}

/**
 * DD.MM.YYYY. A calendar date is shown as stored; an instant as its Tashkent day.
 * @example formatDate('2024-03-05') // '05.03.2024'
 */
export function formatDate(value: unknown): string {
  const p = dateParts(value);
  return p ? `${pad(p.day)}.${pad(p.month)}.${p.year}` : '';
}

/**
 * DD.MM.YYYY hh:mm (24-hour) in Tashkent time.
 * @example formatDateTime('2024-03-05T19:30:00Z') // '06.03.2024 00:30'
 */
export function formatDateTime(value: unknown): string {
  const p = dateParts(value);
  return p ? `${pad(p.day)}.${pad(p.month)}.${p.year} ${pad(p.hour)}:${pad(p.minute)}` : '';
}

/** Groups the digits of a non-negative integer string by three with spaces. */
const group = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

const toNumber = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

/**
 * UZS without decimals (rounded), thousands grouped with spaces.
 * @example formatMoney(1234567.6) // '1 234 568'
 */
export function formatMoney(value: unknown): string {
  const n = toNumber(value);
  if (n === null) return '';
  const rounded = Math.round(n);
  return `${rounded < 0 ? '-' : ''}${group(String(Math.abs(rounded)))}`;
}

/**
 * A number with its integer part grouped with spaces; the decimal mark is a point in
 * English and a comma in the other languages.
 * @example formatNumber(12345.5, 'ru') // '12 345,5'
 */
export function formatNumber(value: unknown, locale: Locale = 'en'): string {
  const n = toNumber(value);
  if (n === null) return '';
  const [int = '0', frac] = String(Math.abs(n)).split('.');
  const body = /e/i.test(int) ? int : group(int);
  return `${n < 0 ? '-' : ''}${body}${frac ? `${locale === 'en' ? '.' : ','}${frac}` : ''}`;
}

/** "Yes"/"No" in the current language (keys `engine.list.yes`/`engine.list.no`). */
export function formatBoolean(value: unknown, translate: Translate): string {
  if (value === null || value === undefined || value === '') return '';
  const yes = value === true || value === 'true';
  return translate(yes ? 'engine.list.yes' : 'engine.list.no') ?? (yes ? 'Yes' : 'No');
}

/**
 * Where an entity's state labels are: its machine's `workflow.<machine>.states`, or, for an
 * entity without a machine (its records keep their initial status), `entity.<id>.states`. One
 * label per state: the badge, the list, the filter, the history, the public lookups, the
 * exports and the notices all read it here.
 * @example statesKeyOf({ id: 'correspondence', workflow: 'document' }) // 'workflow.document.states'
 */
export const statesKeyOf = (manifest: { id: string; workflow?: string | undefined }): string =>
  manifest.workflow ? `workflow.${manifest.workflow}.states` : `entity.${manifest.id}.states`;

/**
 * A status's label (key `<statesKey>.<STATUS>`, see {@link statesKeyOf}), or the raw status
 * when the key is missing or the states are not known.
 * @example statusLabel('CREATED', (k) => undefined, 'workflow.appeal.states') // 'CREATED'
 */
export function statusLabel(status: unknown, translate: Translate, statesKey: string | undefined): string {
  if (status === null || status === undefined || status === '') return '';
  return (statesKey && translate(`${statesKey}.${String(status)}`)) || String(status);
}

/** The translated title of an enum value, or the raw value when it has none. */
export function enumLabel(value: unknown, options: readonly EnumOption[] | undefined, translate: Translate): string {
  if (value === null || value === undefined || value === '') return '';
  const option = options?.find((o) => o.value === value);
  return (option?.titleKey && translate(option.titleKey)) || String(value);
}

/** A reference item's name in the locale, or the raw id while the list is not loaded. */
export function referenceLabel(id: unknown, item: LocalizedNames | undefined, locale: Locale): string {
  if (id === null || id === undefined || id === '') return '';
  return (item && localizedName(item, locale)) || String(id);
}

/**
 * The name a sort is sent under: the column's pointer without the leading slash, with dots.
 * @example sortName('/customer/surname') // 'customer.surname'
 */
export const sortName = (pointer: string): string => pointerSegments(pointer).join('.');
