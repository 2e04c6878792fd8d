import ExcelJS from 'exceljs';
import type { Locale } from '../../shared/locales.ts';
import type { Translate } from '../../shared/format.ts';
import { formatValue, type DisplayFormat } from '../../shared/cell-formats.ts';
import type { PanelTable, TableColumn, TableRow } from '../../shared/dashboard-table.ts';
import type { ReferenceService } from '../store/references.ts';
import { EXCEL_CELLS, SCREEN_EXCEL_CELLS } from './excel-cells.ts';
import { excelValue } from './export.ts';

/**
 * The XLSX of one dashboard table (src/shared/dashboard-table.ts lays out its rows): a title
 * row, a line naming the filters in words, the header (with a row of column groups above it,
 * merged), the rows with group headings, subtotals and the grand total in bold, the header
 * frozen, the columns as wide as their texts. Cells are real numbers and dates in the display
 * formats of the screen (excel-cells.ts), reference ids their names in the reader's language.
 */

/** The texts of the sheet, already in the reader's language. */
export interface SheetTexts {
  /** The worksheet's tab (at most 31 characters are kept). */
  sheetName: string;
  title: string;
  /** The filters in words: "Period: July 2025 · Region: Tashkent City". */
  filterLine: string;
  columnTitle(column: TableColumn): string;
  groupTitle(titleKey: string): string;
  /** A group heading row's text (the group's value as shown). */
  heading(value: unknown): string;
  subtotal(value: unknown): string;
  total: string;
}

/** What a cell needs to be written as the screen shows it. */
export interface CellContext {
  locale: Locale;
  translate: Translate;
  references: ReferenceService;
  /** Where the state labels of the source entity are (a `status` column). */
  statesKey?: string;
}

const CHANGE_FORMAT = '+0.0%;-0.0%;0.0%';

/** A cell's value in the column's display format (see the module comment). */
export function dashboardCell(value: unknown, column: TableColumn, ctx: CellContext): ExcelJS.CellValue {
  if (value === null || value === undefined || value === '') return null;
  if (column.role === 'change') return typeof value === 'number' ? value : null;
  const { field } = column;
  const format = field.format;
  if (field.reference)
    return excelValue(
      value,
      { kind: 'reference', reference: field.reference },
      ctx.locale,
      ctx.translate,
      ctx.references,
    );
  if (format && Object.hasOwn(EXCEL_CELLS, format))
    return excelValue(
      value,
      {
        kind: format as keyof typeof EXCEL_CELLS,
        ...(ctx.statesKey ? { statesKey: ctx.statesKey } : {}),
        ...(field.valueLabels ? { valueLabels: field.valueLabels } : {}),
      },
      ctx.locale,
      ctx.translate,
      ctx.references,
    );
  const screenOnly = format ? SCREEN_EXCEL_CELLS[format] : undefined;
  if (screenOnly) return screenOnly.value(value, {}, { locale: ctx.locale, translate: ctx.translate });
  if (format) return formatValue(value, format as DisplayFormat, {}, { locale: ctx.locale, translate: ctx.translate });
  return typeof value === 'number' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The Excel number format of a column; a `number` column of whole numbers shows no decimals. */
export function dashboardNumFmt(column: TableColumn, table: PanelTable): string | undefined {
  if (column.role === 'change') return CHANGE_FORMAT;
  const format = column.field.format;
  if (!format || column.field.reference) return undefined;
  if (format === 'number') {
    const whole = table.rows.every((r) => r.kind === 'group' || Number.isInteger(Number(r.values[column.key] ?? 0)));
    return whole ? '#,##0' : '#,##0.00';
  }
  if (Object.hasOwn(EXCEL_CELLS, format)) return EXCEL_CELLS[format as keyof typeof EXCEL_CELLS].numFmt?.('', {});
  return SCREEN_EXCEL_CELLS[format]?.numFmt?.('', {});
}

/** The text a cell shows, for the column width. */
const shownLength = (value: ExcelJS.CellValue, numFmt: string | undefined): number => {
  if (value === null || value === undefined) return 0;
  if (value instanceof Date) return 10;
  if (typeof value === 'number')
    return (numFmt?.includes('%') ? 8 : 0) + Math.round(Math.abs(value)).toString().length * 1.3 + 3;
  return String(value).length;
};

const BOLD: Partial<ExcelJS.Font> = { bold: true };
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF4' } };
const GROUP_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF3F3F3' } };
const THIN: Partial<ExcelJS.Borders> = { top: { style: 'thin' }, bottom: { style: 'thin' } };

/**
 * The workbook of a laid-out dashboard table, as bytes.
 * @example await dashboardWorkbook(buildPanelTable(panel, answers), texts, ctx)
 */
export async function dashboardWorkbook(table: PanelTable, texts: SheetTexts, ctx: CellContext): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheetName = texts.sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1';
  const width = Math.max(1, table.columns.length);
  const headerRows = table.groups.length ? 2 : 1;
  const firstHeader = 4;
  const lastHeader = firstHeader + headerRows - 1;
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: lastHeader }] });
  const numFmts = table.columns.map((c) => dashboardNumFmt(c, table));
  const widths = table.columns.map((c) => texts.columnTitle(c).length / (headerRows === 2 ? 1 : 1.4));

  const banner = (row: number, text: string, font: Partial<ExcelJS.Font>) => {
    sheet.getCell(row, 1).value = text;
    sheet.getCell(row, 1).font = font;
    if (width > 1) sheet.mergeCells(row, 1, row, width);
  };
  banner(1, texts.title, { bold: true, size: 14 });
  banner(2, texts.filterLine, { italic: true });

  // The header: a column inside a group has its title under the group's; one outside spans both rows.
  table.columns.forEach((column, i) => {
    const cell = sheet.getCell(lastHeader, i + 1);
    cell.value = texts.columnTitle(column);
    if (headerRows === 2 && !table.groups.some((g) => i >= g.first && i < g.first + g.span)) {
      sheet.getCell(firstHeader, i + 1).value = texts.columnTitle(column);
      sheet.mergeCells(firstHeader, i + 1, lastHeader, i + 1);
    }
  });
  for (const g of table.groups) {
    sheet.getCell(firstHeader, g.first + 1).value = texts.groupTitle(g.titleKey);
    if (g.span > 1) sheet.mergeCells(firstHeader, g.first + 1, firstHeader, g.first + g.span);
  }
  for (let r = firstHeader; r <= lastHeader; r++) {
    const row = sheet.getRow(r);
    row.font = BOLD;
    row.alignment = { vertical: 'middle', horizontal: 'center', wrapText: true };
    for (let c = 1; c <= width; c++) {
      row.getCell(c).fill = HEADER_FILL;
      row.getCell(c).border = { ...THIN, left: { style: 'thin' }, right: { style: 'thin' } };
    }
  }

  let r = lastHeader;
  const write = (tableRow: TableRow) => {
    r += 1;
    const row = sheet.getRow(r);
    if (tableRow.kind === 'group') {
      row.getCell(1).value = texts.heading(tableRow.value);
      if (width > 1) sheet.mergeCells(r, 1, r, width);
      row.font = BOLD;
      row.getCell(1).fill = GROUP_FILL;
      return;
    }
    table.columns.forEach((column, i) => {
      const value = dashboardCell(tableRow.values[column.key], column, ctx);
      const cell = row.getCell(i + 1);
      cell.value = value;
      if (numFmts[i]) cell.numFmt = numFmts[i]!;
      widths[i] = Math.max(widths[i]!, shownLength(value, numFmts[i]));
    });
    if (tableRow.kind === 'row') return;
    // The label goes in the first column that is not summed (usually the group or name column).
    const label = tableRow.kind === 'total' ? texts.total : texts.subtotal(tableRow.value);
    const at = Math.max(
      0,
      table.columns.findIndex((c) => !c.total),
    );
    row.getCell(at + 1).value = label;
    widths[at] = Math.max(widths[at]!, label.length);
    row.font = BOLD;
    for (let c = 1; c <= width; c++) row.getCell(c).border = THIN;
  };
  table.rows.forEach(write);

  widths.forEach((w, i) => {
    sheet.getColumn(i + 1).width = Math.min(60, Math.max(10, Math.ceil(w + 2)));
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
