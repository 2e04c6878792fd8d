/**
 * The `numberDate` display format: a register's "number and date" column shows a nested
 * `{number, date}` object of the record as one cell, on screen and in the dashboard XLSX.
 */
import { describe, expect, it } from 'vitest';
import { formatCell, numberAndDate } from '../../src/shared/cell-formats.ts';
import type { FormatContext } from '../../src/shared/format.ts';

const ctx: FormatContext = { locale: 'ru', translate: () => undefined };

describe('numberDate format', () => {
  it('shows the number and the date in one cell, DD.MM.YYYY', () => {
    expect(numberAndDate({ number: '14-05/12', date: '2025-03-05', content: 'long text' })).toBe(
      '№ 14-05/12, 05.03.2025',
    );
    expect(formatCell({ number: 7, date: '2025-12-31' }, { kind: 'numberDate' }, ctx)).toBe('№ 7, 31.12.2025');
  });

  it('shows the part that is there when the other is missing, and nothing for an empty object', () => {
    expect(numberAndDate({ number: 'A-1' })).toBe('№ A-1');
    expect(numberAndDate({ date: '2025-01-02' })).toBe('02.01.2025');
    expect(numberAndDate({ content: 'only content' })).toBe('');
    expect(numberAndDate({ number: '  ', date: null })).toBe('');
  });

  it('shows a value that is not an object as plain text, and nothing for null', () => {
    expect(numberAndDate('12 of 01.01.2025')).toBe('12 of 01.01.2025');
    expect(formatCell(null, { kind: 'numberDate' }, ctx)).toBe('');
  });
});
