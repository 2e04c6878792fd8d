import type ExcelJS from 'exceljs';
import type { JSONSchema7 } from 'json-schema';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { CELL_FORMATS, type FormatOptions } from '../../shared/cell-formats.ts';
import { dateParts, type CellKind, type FormatContext } from '../../shared/format.ts';

/**
 * The Excel side of the display-format registry (`src/shared/cell-formats.ts`): for each grid
 * column format, the cell value Excel should hold (real dates and numbers, localized names as
 * text) and the column's number format. Typed by the format names, so a format added to the
 * grid meta-schema without its Excel cell does not compile.
 */
export interface ExcelCell {
  /** The cell of one value (never null, undefined or ''; arrays are joined by the caller). */
  value(value: unknown, options: FormatOptions, ctx: FormatContext): ExcelJS.CellValue;
  /**
   * The Excel number format of the column of `field`. `#,##0` is Excel's grouping code: the
   * reader's Excel shows its own grouping mark (a space in ru/uz), which a literal `# ##0` would not.
   */
  numFmt?(field: string, schema: JSONSchema7): string;
}

/** A calendar date or instant as the Date exceljs stores: the Tashkent wall clock, read as UTC. */
function excelDate(value: unknown, withTime: boolean): Date | null {
  const p = dateParts(value);
  if (!p) return null;
  return new Date(
    Date.UTC(p.year, p.month - 1, p.day, withTime ? p.hour : 0, withTime ? p.minute : 0, withTime ? p.second : 0),
  );
}

/** A number as a number (rounded when `round`), or the text when it is not one. */
const excelNumber =
  (round: boolean): ExcelCell['value'] =>
  (value) => {
    const n = Number(value);
    if (!Number.isFinite(n)) return String(value);
    return round ? Math.round(n) : n;
  };

/** Labels (statuses, enums, references, yes/no) are the text the grid shows. */
const asShown =
  (kind: CellKind): ExcelCell['value'] =>
  (value, options, ctx) =>
    CELL_FORMATS[kind].text(value, options, ctx);

/** Every grid format's Excel cell, one entry each. */
export const EXCEL_CELLS: { readonly [K in CellKind]: ExcelCell } = {
  // Plain columns keep numbers as numbers (an id stays sortable in Excel), anything else is text.
  text: {
    value: (value) =>
      typeof value === 'number'
        ? value
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value as string | boolean),
  },
  number: {
    value: excelNumber(false),
    numFmt: (field, schema) =>
      scalarType(resolveFieldSchema(schema, field) ?? {}) === 'integer' ? '#,##0' : '#,##0.00',
  },
  money: { value: excelNumber(true), numFmt: () => '#,##0' },
  date: { value: (value) => excelDate(value, false), numFmt: () => 'dd.mm.yyyy' },
  datetime: { value: (value) => excelDate(value, true), numFmt: () => 'dd.mm.yyyy hh:mm' },
  status: { value: asShown('status') },
  reference: { value: asShown('reference') },
  boolean: { value: asShown('boolean') },
  enum: { value: asShown('enum') },
  label: { value: asShown('label') },
  // A number Excel keeps as a number, shown without grouping (2025).
  year: { value: excelNumber(false), numFmt: () => '0' },
};

/** A number scaled by `by` (millions, percent), or the text when it is not one. */
const scaled =
  (by: number): ExcelCell['value'] =>
  (value) => {
    const n = Number(value);
    return Number.isFinite(n) ? n / by : String(value);
  };

/**
 * The Excel cells of the formats only dashboards and lookups name (`DISPLAY_FORMATS` in
 * cell-formats.ts): a screen-only format missing here is written as the text the screen shows.
 * `millions` holds the amount in millions (Excel computes with what it shows); `percent` a
 * number already multiplied by 100, kept as Excel's fraction so that the cell reads "12.3%".
 */
export const SCREEN_EXCEL_CELLS: Readonly<Record<string, ExcelCell>> = {
  day: { value: (value) => String(value).slice(8, 10) },
  link: { value: (value) => String(value) },
  integer: { value: excelNumber(true), numFmt: () => '#,##0' },
  millions: { value: scaled(1_000_000), numFmt: () => '#,##0.0' },
  percent: { value: scaled(100), numFmt: () => '0.0%' },
};
