import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { createTestI18n } from '../form/testing.tsx';
import { parsePeriod } from '../../shared/periods.ts';
import { change, tableLines } from './table-model.ts';
import { periodWords } from './period-words.ts';

const columns = [
  { field: 'regionId', titleKey: 't' },
  { field: 'n', titleKey: 't', format: 'integer' },
  { field: 'label', titleKey: 't', format: 'text', total: false },
];
const rows = [
  { regionId: 1, n: 2 },
  { regionId: 2, n: 5 },
  { regionId: 1, n: 3 },
];

describe('table lines', () => {
  it('plain rows, with a total row when asked', () => {
    expect(tableLines({ columns }, rows, { groupFields: ['regionId'] }).map((l) => l.kind)).toEqual([
      'row',
      'row',
      'row',
    ]);
    const lines = tableLines({ columns, total: true }, rows, { groupFields: ['regionId'] });
    expect(lines.at(-1)).toEqual({ kind: 'total', row: { n: 10 }, group: {}, previous: undefined });
  });

  it('groups in order of first appearance, sums every row of a group even beyond the limit', () => {
    const lines = tableLines({ columns, groupRows: { field: 'regionId' }, limit: 2 }, rows, {
      groupFields: ['regionId'],
    });
    expect(lines.map((l) => `${l.kind}:${JSON.stringify(l.row)}`)).toEqual([
      'heading:{"regionId":1}',
      'row:{"regionId":1,"n":2}',
      'subtotal:{"regionId":1,"n":5}',
      'heading:{"regionId":2}',
      'row:{"regionId":2,"n":5}',
      'subtotal:{"regionId":2,"n":5}',
      'total:{"n":10}',
    ]);
  });

  it('takes subtotals and the total from the totals rows; matches the previous period by group', () => {
    const lines = tableLines({ columns, groupRows: { field: 'regionId' } }, rows, {
      groupFields: ['regionId'],
      totalsRows: [
        { regionId: 1, n: 50 },
        { regionId: 2, n: 7 },
      ],
      previousRows: [{ regionId: 2, n: 4 }],
    });
    expect(lines.filter((l) => l.kind === 'subtotal').map((l) => l.row.n)).toEqual([50, 7]);
    expect(lines.at(-1)!.row.n).toBe(57);
    expect(lines.filter((l) => l.kind === 'row').map((l) => l.previous?.n)).toEqual([undefined, undefined, 4]);
    expect(lines.filter((l) => l.kind === 'subtotal').map((l) => l.previous?.n)).toEqual([undefined, 4]);
    expect(lines.at(-1)!.previous).toEqual({ n: 4 });
  });

  it('the change: direction and percentage, none from zero', () => {
    expect(change(15, 10)).toEqual({ dir: 'up', pct: 50 });
    expect(change(5, 10)).toEqual({ dir: 'down', pct: 50 });
    expect(change(3, 3)).toEqual({ dir: 'same', pct: 0 });
    expect(change(3, 0)).toEqual({ dir: 'up', pct: null });
    expect(change(3, undefined)).toEqual({ dir: 'up', pct: null });
  });
});

describe('period in words', () => {
  it('names the period in each language', async () => {
    const i18n = createTestI18n();
    const t = i18n.t.bind(i18n) as TFunction;
    expect(periodWords(parsePeriod('2025-Q3')!, t)).toBe('3rd quarter 2025');
    expect(periodWords(parsePeriod('2025-07')!, t)).toBe('July 2025');
    expect(periodWords(parsePeriod('2025')!, t)).toBe('2025');
    expect(periodWords(parsePeriod('2025-07-01..2025-09-30')!, t)).toBe('01.07.2025 – 30.09.2025');
    for (const [lang, q3, jul] of [
      ['ru', '3-й квартал 2025', 'Июль 2025'],
      ['uz', '2025-yil 3-chorak', '2025-yil iyul'],
      ['uzCyrillic', '2025 йил 3-чорак', '2025 йил июль'],
    ] as const) {
      const texts = (await import(`../../i18n/locales/${lang}.json`)).default;
      i18n.addResourceBundle(lang, 'translation', texts);
      const tl = i18n.getFixedT(lang) as TFunction;
      expect(periodWords(parsePeriod('2025-Q3')!, tl)).toBe(q3);
      expect(periodWords(parsePeriod('2025-07')!, tl)).toBe(jul);
    }
  });
});
