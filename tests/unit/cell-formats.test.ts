/**
 * The display-format registry: every column format the grid meta-schema names has an entry
 * (text and hints) and an Excel cell, and the screen-only formats show what the dashboard
 * and lookups always showed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CELL_FORMAT_NAMES,
  CELL_FORMATS,
  DISPLAY_FORMATS,
  formatCell,
  formatValue,
} from '../../src/shared/cell-formats.ts';
import type { FormatContext } from '../../src/shared/format.ts';
import { EXCEL_CELLS } from '../../src/server/routes/excel-cells.ts';

const gridMeta = JSON.parse(readFileSync(new URL('../../schemas/_meta/grid.schema.json', import.meta.url), 'utf8'));
const metaFormats: string[] = gridMeta.properties.columns.items.properties.format.enum;

const ctx: FormatContext = {
  locale: 'ru',
  translate: (key) =>
    (({ 'workflow.gadget-flow.states.DONE': 'Готово', 'engine.list.yes': 'Да' }) as Record<string, string>)[key],
  reference: (kind, id) =>
    kind === 'region' && id === 7
      ? { nameUz: 'Тошкент', nameLt: 'Toshkent', nameRu: 'Ташкент', nameEn: 'Tashkent' }
      : undefined,
};

describe('display-format registry', () => {
  it('has a text entry and an Excel cell for every format of the grid meta-schema, and nothing else', () => {
    expect([...CELL_FORMAT_NAMES].sort()).toEqual([...metaFormats].sort());
    expect(Object.keys(EXCEL_CELLS).sort()).toEqual([...metaFormats].sort());
    for (const name of metaFormats)
      expect(DISPLAY_FORMATS[name as keyof typeof DISPLAY_FORMATS]).toBe(
        CELL_FORMATS[name as keyof typeof CELL_FORMATS],
      );
  });

  it('carries the hints tables use: quantities right-aligned, statuses as badges, references need a list', () => {
    expect(CELL_FORMAT_NAMES.filter((k) => CELL_FORMATS[k].numeric).sort()).toEqual(['money', 'number', 'year']);
    expect(CELL_FORMAT_NAMES.filter((k) => CELL_FORMATS[k].badge)).toEqual(['status']);
    expect(CELL_FORMAT_NAMES.filter((k) => CELL_FORMATS[k].needsReference)).toEqual(['reference']);
    expect(DISPLAY_FORMATS.link.href).toBe(true);
  });

  it('shows one value per format for the locale', () => {
    expect(formatValue(1234567.6, 'money', {}, ctx)).toBe('1 234 568');
    expect(formatValue(12345.5, 'number', {}, ctx)).toBe('12 345,5');
    // A year is a name, not a quantity: no grouping (issue #17 found "2 025").
    expect(formatValue(2025, 'year', {}, ctx)).toBe('2025');
    expect(formatValue('2024-03-05', 'date', {}, ctx)).toBe('05.03.2024');
    expect(formatValue('2024-03-05T19:30:00Z', 'datetime', {}, ctx)).toBe('06.03.2024 00:30');
    expect(formatValue('DONE', 'status', { statesKey: 'workflow.gadget-flow.states' }, ctx)).toBe('Готово');
    // Without knowing whose states they are, the raw status (there is no global label any more).
    expect(formatValue('DONE', 'status', {}, ctx)).toBe('DONE');
    expect(formatValue(7, 'reference', { reference: 'region' }, ctx)).toBe('Ташкент');
    expect(formatValue(8, 'reference', { reference: 'region' }, ctx)).toBe('8');
    expect(formatValue(true, 'boolean', {}, ctx)).toBe('Да');
    expect(
      formatValue('B', 'enum', { options: [{ value: 'B', titleKey: 'workflow.gadget-flow.states.DONE' }] }, ctx),
    ).toBe('Готово');
    expect(formatValue('2024-03-05', 'day', {}, ctx)).toBe('05');
    expect(formatValue('/files/a.csv', 'link', {}, ctx)).toBe('/files/a.csv');
    expect(formatValue(null, 'money', {}, ctx)).toBe('');
  });

  it('shows a format it does not know as plain text, and an array whole unless formatCell splits it', () => {
    expect(formatValue(5, 'sparkline' as never, {}, ctx)).toBe('5');
    expect(formatValue(['a', 'b'], 'text', {}, ctx)).toBe('a,b');
    expect(formatCell(['DONE', 'X'], { kind: 'status', statesKey: 'workflow.gadget-flow.states' }, ctx)).toBe(
      'Готово, X',
    );
  });

  it('shows the dashboard formats: integer counts, amounts in millions of som with one decimal, percentages', () => {
    expect(formatValue(1234567.6, 'integer', {}, ctx)).toBe('1 234 568');
    expect(formatValue(1_234_567, 'millions', {}, ctx)).toBe('1,2');
    expect(formatValue(987_654_321_000, 'millions', {}, ctx)).toBe('987 654,3');
    expect(formatValue(0, 'millions', {}, ctx)).toBe('0,0');
    expect(formatValue(-40_000, 'millions', {}, ctx)).toBe('0,0');
    expect(formatValue(-2_560_000, 'millions', {}, ctx)).toBe('-2,6');
    expect(formatValue(1_250_000, 'millions', {}, { ...ctx, locale: 'en' })).toBe('1.3');
    expect(formatValue(12.345, 'percent', {}, ctx)).toBe('12,3%');
    expect(formatValue(100, 'percent', {}, { ...ctx, locale: 'en' })).toBe('100.0%');
    expect(formatValue('n/a', 'percent', {}, ctx)).toBe('n/a');
    expect(formatValue('n/a', 'millions', {}, ctx)).toBe('n/a');
    expect(['integer', 'millions', 'percent'].every((k) => DISPLAY_FORMATS[k as 'integer'].numeric)).toBe(true);
  });
});
