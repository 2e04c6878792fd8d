/**
 * The cells of a dashboard's XLSX (src/server/routes/dashboard-sheet.ts): each column's display
 * format as Excel holds it — numbers stay numbers (millions and percentages scaled, with their
 * number format), reference ids and states become their names in the reader's language, a
 * screen-only format Excel has no cell for is the text the screen shows.
 */
import { describe, expect, it } from 'vitest';
import type { DashboardField } from '../../src/generated/meta.ts';
import type { PanelTable, TableColumn } from '../../src/shared/dashboard-table.ts';
import { dashboardCell, dashboardNumFmt, type CellContext } from '../../src/server/routes/dashboard-sheet.ts';
import type { ReferenceService } from '../../src/server/store/references.ts';

const references = {
  get: (kind: string, id: number) =>
    kind === 'region' && id === 14
      ? { id: 14, nameLt: 'Toshkent shahri', nameUz: 'Тошкент шаҳри', nameRu: 'город Ташкент', nameEn: 'Tashkent City' }
      : undefined,
} as unknown as ReferenceService;
const texts: Record<string, string> = { 'states.case.EXPLAINED': 'Разъяснено', 'common.yes': 'Да' };
const ctx: CellContext = { locale: 'ru', translate: (k) => texts[k], references, statesKey: 'states.case' };
const column = (field: Partial<DashboardField>, role: TableColumn['role'] = 'value'): TableColumn => ({
  key: 'v',
  field: { field: 'v', titleKey: 't', ...field },
  role,
  total: false,
});
const table = (values: unknown[]): PanelTable => ({
  columns: [],
  groups: [],
  rows: values.map((v) => ({ kind: 'row', values: { v } })),
});

describe("a dashboard XLSX's cells", () => {
  it('keeps numbers as numbers in the formats of the screen', () => {
    expect(dashboardCell(2_500_000, column({ format: 'millions' }), ctx)).toBe(2.5);
    expect(dashboardCell(12.5, column({ format: 'percent' }), ctx)).toBe(0.125);
    expect(dashboardCell(1234.6, column({ format: 'integer' }), ctx)).toBe(1235);
    expect(dashboardCell(1234.6, column({ format: 'money' }), ctx)).toBe(1235);
    expect(dashboardCell(-0.25, column({ format: 'number' }, 'change'), ctx)).toBe(-0.25);
    expect(dashboardCell(7, column({}), ctx)).toBe(7);
    expect(dashboardNumFmt(column({ format: 'millions' }), table([])) ?? '').toBe('#,##0.0');
    expect(dashboardNumFmt(column({ format: 'percent' }), table([]))).toBe('0.0%');
    expect(dashboardNumFmt(column({}, 'change'), table([]))).toMatch(/%/);
    expect(dashboardNumFmt(column({ format: 'number' }), table([1, 2]))).toBe('#,##0');
    expect(dashboardNumFmt(column({ format: 'number' }), table([1, 2.5]))).toBe('#,##0.00');
  });

  it('names reference ids and states in the reader’s language; empty stays empty', () => {
    expect(dashboardCell(14, column({ reference: 'region' }), ctx)).toBe('город Ташкент');
    expect(dashboardCell(99, column({ reference: 'region' }), ctx)).toBe('99');
    expect(dashboardCell('EXPLAINED', column({ format: 'status' }), ctx)).toBe('Разъяснено');
    expect(dashboardCell('2025-07-09', column({ format: 'date' }), ctx)).toEqual(new Date(Date.UTC(2025, 6, 9)));
    expect(dashboardCell('2025-07-09', column({ format: 'day' }), ctx)).toBe('09');
    expect([null, undefined, ''].map((v) => dashboardCell(v, column({ format: 'money' }), ctx))).toEqual([
      null,
      null,
      null,
    ]);
  });
});
