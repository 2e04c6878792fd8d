import { describe, expect, it } from 'vitest';
import type { JSONSchema7 } from 'json-schema';
import {
  enumLabel,
  enumOptions,
  formatBoolean,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  referenceLabel,
  resolveColumnFormat,
  sortName,
  statesKeyOf,
  statusLabel,
  type FormatContext,
  type Translate,
} from '../../src/shared/format.ts';
import { formatCell } from '../../src/shared/cell-formats.ts';
import { valueAt } from '../../src/shared/pointer.ts';

const dictionary: Record<string, string> = {
  'engine.list.yes': 'Ha',
  'engine.list.no': 'Yo‘q',
  'workflow.appeal.states.CREATED': 'Yaratilgan',
  'opt.a': 'Birinchi',
};
const translate: Translate = (key) => dictionary[key];

const schema: JSONSchema7 = {
  type: 'object',
  properties: {
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    count: { type: 'integer' },
    price: { type: 'number' },
    flag: { type: 'boolean' },
    kind: {
      type: 'string',
      oneOf: [
        { const: 'A', title: 'opt.a' },
        { const: 'B', title: 'opt.b' },
      ],
    },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
    regionId: { type: 'integer', reference: { list: 'region' } } as JSONSchema7,
    nested: { type: 'object', properties: { name: { type: 'string' } } },
  },
};

describe('dates', () => {
  it('shows a calendar date as stored, DD.MM.YYYY', () => {
    expect(formatDate('2024-03-05')).toBe('05.03.2024');
    expect(formatDate('1999-12-31')).toBe('31.12.1999');
  });
  it('shows an instant as its day and time in Tashkent (UTC+5)', () => {
    expect(formatDateTime('2024-03-05T19:30:00.000Z')).toBe('06.03.2024 00:30');
    expect(formatDateTime('2024-07-01T04:05:59Z')).toBe('01.07.2024 09:05');
    expect(formatDate('2024-03-05T19:30:00.000Z')).toBe('06.03.2024');
    expect(formatDateTime(new Date(Date.UTC(2020, 0, 1, 0, 0)))).toBe('01.01.2020 05:00');
  });
  it('shows nothing for unreadable values', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime(42)).toBe('');
    expect(formatDate(null)).toBe('');
  });
});

describe('numbers', () => {
  it('shows money as whole UZS grouped by three with spaces', () => {
    expect(formatMoney(1234567.6)).toBe('1 234 568');
    expect(formatMoney(999)).toBe('999');
    expect(formatMoney(1000)).toBe('1 000');
    expect(formatMoney(-2500000)).toBe('-2 500 000');
    expect(formatMoney('15000.4')).toBe('15 000');
    expect(formatMoney(0)).toBe('0');
    expect(formatMoney(1234567)).toBe('1 234 567');
    expect(formatMoney(1000.6)).toBe('1 001');
    expect(formatMoney(undefined)).toBe('');
    expect(formatMoney('abc')).toBe('');
  });
  it('groups numbers and keeps their decimals with the locale’s mark', () => {
    expect(formatNumber(12345.5, 'en')).toBe('12 345.5');
    expect(formatNumber(12345.5, 'ru')).toBe('12 345,5');
    expect(formatNumber(-1000000, 'uz')).toBe('-1 000 000');
    expect(formatNumber(12, 'uzCyrillic')).toBe('12');
    expect(formatNumber(undefined)).toBe('');
  });
});

describe('labels', () => {
  it('says yes or no in the current language, nothing for no value', () => {
    expect(formatBoolean(true, translate)).toBe('Ha');
    expect(formatBoolean(false, translate)).toBe('Yo‘q');
    expect(formatBoolean(null, translate)).toBe('');
    expect(formatBoolean(true, () => undefined)).toBe('Yes');
  });
  it('translates a status and falls back to the raw status when the key is missing', () => {
    expect(statusLabel('CREATED', translate, 'workflow.appeal.states')).toBe('Yaratilgan');
    expect(statusLabel('PROCCESS', translate, 'workflow.appeal.states')).toBe('PROCCESS');
    expect(statusLabel('CREATED', translate, undefined)).toBe('CREATED');
    expect(statusLabel(undefined, translate, 'workflow.appeal.states')).toBe('');
    expect(statesKeyOf({ id: 'correspondence', workflow: 'document' })).toBe('workflow.document.states');
    expect(statesKeyOf({ id: 'contractor' })).toBe('entity.contractor.states');
  });
  it('translates enum titles, raw value without a title or translation', () => {
    const options = enumOptions(schema.properties!.kind as JSONSchema7);
    expect(options).toEqual([
      { value: 'A', titleKey: 'opt.a' },
      { value: 'B', titleKey: 'opt.b' },
    ]);
    expect(enumLabel('A', options, translate)).toBe('Birinchi');
    expect(enumLabel('B', options, translate)).toBe('B');
    expect(enumLabel('C', options, translate)).toBe('C');
    expect(enumOptions(schema.properties!.tags as JSONSchema7)).toEqual([{ value: 'x' }, { value: 'y' }]);
    expect(enumOptions({ type: 'string' })).toBeUndefined();
  });
  it('names a reference item in the locale, with the legacy fallback order, or shows the id', () => {
    const item = { nameUz: 'Тошкент', nameLt: 'Toshkent', nameRu: 'Ташкент', nameEn: '' };
    expect(referenceLabel(7, item, 'ru')).toBe('Ташкент');
    expect(referenceLabel(7, item, 'uz')).toBe('Toshkent');
    expect(referenceLabel(7, item, 'en')).toBe('Тошкент');
    expect(referenceLabel(7, undefined, 'ru')).toBe('7');
  });
});

describe('resolveColumnFormat', () => {
  const kind = (field: string, format?: 'money') =>
    resolveColumnFormat({ field, titleKey: 'k', ...(format ? { format } : {}) }, schema);
  it('derives the kind from the schema when the grid does not say', () => {
    expect(kind('/day').kind).toBe('date');
    expect(kind('/at').kind).toBe('datetime');
    expect(kind('/createdAt').kind).toBe('datetime');
    expect(kind('/count').kind).toBe('number');
    expect(kind('/flag').kind).toBe('boolean');
    expect(kind('/kind')).toEqual({
      kind: 'enum',
      options: [
        { value: 'A', titleKey: 'opt.a' },
        { value: 'B', titleKey: 'opt.b' },
      ],
    });
    expect(kind('/regionId')).toEqual({ kind: 'reference', reference: 'region' });
    expect(kind('/status').kind).toBe('status');
    expect(kind('/id').kind).toBe('text');
    expect(kind('/nested/name').kind).toBe('text');
    expect(kind('/missing').kind).toBe('text');
  });
  it('takes the grid’s format first', () => {
    expect(kind('/price', 'money').kind).toBe('money');
  });
});

describe('formatCell', () => {
  const ctx: FormatContext = {
    locale: 'ru',
    translate,
    reference: (k, id) => (k === 'region' && id === 3 ? { nameRu: 'Самарканд' } : undefined),
  };
  const cell = (value: unknown, field: string, format?: 'money') =>
    formatCell(
      value,
      resolveColumnFormat({ field, titleKey: 'k', ...(format ? { format } : {}) }, schema, 'workflow.appeal.states'),
      ctx,
    );
  it('formats every kind', () => {
    expect(cell('2024-01-02', '/day')).toBe('02.01.2024');
    expect(cell('2024-01-02T10:00:00Z', '/at')).toBe('02.01.2024 15:00');
    expect(cell(2500.75, '/price', 'money')).toBe('2 501');
    expect(cell(2500.75, '/price')).toBe('2 500,75');
    expect(cell(true, '/flag')).toBe('Ha');
    expect(cell('A', '/kind')).toBe('Birinchi');
    expect(cell(3, '/regionId')).toBe('Самарканд');
    expect(cell(4, '/regionId')).toBe('4');
    expect(cell('CREATED', '/status')).toBe('Yaratilgan');
    expect(cell(15, '/id')).toBe('15');
    expect(cell(undefined, '/day')).toBe('');
  });
  it('formats multi-choice values item by item', () => {
    expect(cell(['x', 'y'], '/tags')).toBe('x, y');
  });
});

describe('helpers', () => {
  it('names a sort field with dots, without the leading slash', () => {
    expect(sortName('/customer/surname')).toBe('customer.surname');
    expect(sortName('/createdAt')).toBe('createdAt');
  });
  it('reads values by JSON pointer', () => {
    expect(valueAt({ a: { b: 2 } }, '/a/b')).toBe(2);
    expect(valueAt({ a: null }, '/a/b')).toBeUndefined();
    expect(valueAt({ 'x/y': 1 }, '/x~1y')).toBe(1);
  });
});
