/**
 * The registry of display formats: how a value is shown as text in the current language, one
 * entry per format, with the layout hints tables need. The grid's column formats
 * (`schemas/_meta/grid.schema.json` → `columns[].format`, {@link CELL_FORMATS}) are shown the
 * same way by the list grid, the detail screen's history, the dashboard and the lookups; a
 * dashboard or lookup screen may also name a screen-only format ({@link DISPLAY_FORMATS}). The
 * server's Excel cells (`src/server/routes/excel-cells.ts`) are keyed by the same names.
 *
 * Pure and isomorphic; the formatting rules themselves live in `format.ts`.
 */
import {
  enumLabel,
  formatBoolean,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  referenceLabel,
  statusLabel,
  type CellKind,
  type EnumOption,
  type FormatContext,
} from './format.ts';

/** What a format may need besides the value: the reference list or the enum's choices. */
export interface FormatOptions {
  /** Reference list kind, for `reference`. */
  reference?: string;
  /** Choices, for `enum`. */
  options?: EnumOption[];
  /** Where the state labels are, for `status` (`statesKeyOf` in format.ts). */
  statesKey?: string;
  /** The key prefix of the values' texts, for `label`. */
  valueLabels?: string;
}

/** One display format. */
export interface CellFormatEntry {
  /**
   * The text of one value (never null or undefined; arrays reach it only through a caller
   * that does not split them, and are then shown as `String` shows them).
   */
  text(value: unknown, options: FormatOptions, ctx: FormatContext): string;
  /** A quantity: right-aligned in tables. */
  numeric?: boolean;
  /** A workflow state: shown as a coloured badge where the table can. */
  badge?: boolean;
  /** Names its values from a reference list, which the grid column must name. */
  needsReference?: boolean;
  /** The value is a URL: a table shows it as a link named by the column title. */
  href?: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Plain text; an object (a nested field shown whole) as JSON. */
const plain: CellFormatEntry['text'] = (value) => (isRecord(value) ? JSON.stringify(value) : String(value));

/**
 * The grid's column formats, one entry each (the grid meta-schema's enum).
 * @example CELL_FORMATS.money.text(1234567.6, {}, ctx) // '1 234 568'
 */
export const CELL_FORMATS: { readonly [K in CellKind]: CellFormatEntry } = {
  text: { text: plain },
  number: { text: (value, _, ctx) => formatNumber(value, ctx.locale), numeric: true },
  money: { text: (value) => formatMoney(value), numeric: true },
  date: { text: (value) => formatDate(value) },
  datetime: { text: (value) => formatDateTime(value) },
  status: { text: (value, { statesKey }, ctx) => statusLabel(value, ctx.translate, statesKey), badge: true },
  reference: {
    text(value, { reference }, ctx) {
      const id = Number(value);
      return referenceLabel(
        value,
        reference && Number.isFinite(id) ? ctx.reference?.(reference, id) : undefined,
        ctx.locale,
      );
    },
    needsReference: true,
  },
  boolean: { text: (value, _, ctx) => formatBoolean(value, ctx.translate) },
  enum: { text: (value, { options }, ctx) => enumLabel(value, options, ctx.translate) },
  // A value named by its text (a role's code → its name in the user's language), else itself.
  label: {
    text: (value, { valueLabels }, ctx) =>
      (valueLabels ? ctx.translate(`${valueLabels}.${String(value)}`) : undefined) ?? plain(value, {}, ctx),
  },
  // A year or a plain number that names something (2025, not "2 025"): digits as stored, no grouping.
  year: { text: (value) => String(value), numeric: true },
};

/** A format a dashboard or lookup screen may name besides the grid's. */
export type ScreenOnlyFormat = 'day' | 'link' | 'integer' | 'millions' | 'percent';

/** A number rounded to `digits` decimals, always showing them (12.25 → '12,3' in ru with 1). */
const fixed = (value: unknown, digits: number, ctx: FormatContext, scale = 1): string => {
  const n = Number(value) / scale;
  if (value === '' || value === null || !Number.isFinite(n)) return plain(value, {}, ctx);
  const [int = '0', frac = ''] = Math.abs(n).toFixed(digits).split('.');
  const negative = n < 0 && Number(Math.abs(n).toFixed(digits)) !== 0;
  const whole = formatNumber(Number(int), ctx.locale);
  return `${negative ? '-' : ''}${whole}${frac ? `${ctx.locale === 'en' ? '.' : ','}${frac}` : ''}`;
};

/** Every display format's name. */
export type DisplayFormat = CellKind | ScreenOnlyFormat;

/**
 * The grid's formats and the screen-only ones: `day` the day of a date; `link` a URL;
 * `integer` a count (rounded, grouped); `millions` an amount of som shown in millions with one
 * decimal (1 234 567 → '1,2'; the column title says "mln som"); `percent` a percentage already
 * multiplied by 100, one decimal (12.345 → '12,3%'). The server's XLSX export shows the same texts.
 */
export const DISPLAY_FORMATS: { readonly [K in DisplayFormat]: CellFormatEntry } = {
  ...CELL_FORMATS,
  day: { text: (value) => String(value).slice(8, 10) },
  link: { text: plain, href: true },
  integer: { text: (value, _, ctx) => fixed(value, 0, ctx), numeric: true },
  millions: { text: (value, _, ctx) => fixed(value, 1, ctx, 1_000_000), numeric: true },
  percent: {
    text: (value, _, ctx) =>
      value !== '' && Number.isFinite(Number(value)) ? `${fixed(value, 1, ctx)}%` : plain(value, {}, ctx),
    numeric: true,
  },
};

/** The grid's format names, in the meta-schema's order. */
export const CELL_FORMAT_NAMES = Object.keys(CELL_FORMATS) as CellKind[];

/**
 * The text of one value in a format; '' for null or undefined. Arrays go to the format whole
 * (the dashboard and lookups show them so); {@link formatCell} splits them.
 */
export function formatValue(value: unknown, kind: DisplayFormat, options: FormatOptions, ctx: FormatContext): string {
  if (value === null || value === undefined) return '';
  // An unknown name (a screen's typo) shows plain text rather than failing the screen.
  return (Object.hasOwn(DISPLAY_FORMATS, kind) ? DISPLAY_FORMATS[kind] : DISPLAY_FORMATS.text).text(
    value,
    options,
    ctx,
  );
}

/**
 * The text of one cell. Arrays (multi-choice fields) are formatted item by item and
 * joined with commas.
 */
export function formatCell(
  value: unknown,
  format: FormatOptions & { kind: DisplayFormat },
  ctx: FormatContext,
): string {
  if (Array.isArray(value))
    return value
      .map((v) => formatCell(v, format, ctx))
      .filter(Boolean)
      .join(', ');
  return formatValue(value, format.kind, format, ctx);
}
