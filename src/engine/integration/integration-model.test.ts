/**
 * The integration pages' pure functions: the query form of a method (the purpose only for
 * personal data), an answer's fields and table, values as officials read them, the audit's
 * state in the address.
 */
import { describe, expect, it } from 'vitest';
import type { IntegrationMethodInfo } from '../../client/data-provider.ts';
import {
  displayValue,
  isReversed,
  paramsLine,
  queryFormSchema,
  readAuditState,
  resultFields,
  resultTable,
  writeAuditState,
} from './integration-model.ts';

const params = {
  type: 'object',
  required: ['inn'],
  properties: { inn: { type: 'string', format: 'stir', title: 'STIR' } },
};
const ctx = {
  locale: 'ru' as const,
  translate: (key: string) => ({ 'engine.list.yes': 'Да', 'engine.list.no': 'Нет' })[key],
};

describe('the query form of a method', () => {
  it('wraps the parameters under /params and asks a purpose of 10 characters only for personal data', () => {
    const plain = queryFormSchema({ params, personalData: false });
    expect(plain.required).toEqual(['params']);
    expect(Object.keys(plain.properties!)).toEqual(['params']);
    expect(plain.properties!.params).toMatchObject({ required: ['inn'], properties: params.properties });
    const personal = queryFormSchema({ params, personalData: true });
    expect(personal.required).toEqual(['params', 'purpose']);
    expect(personal.properties!.purpose).toMatchObject({ type: 'string', minLength: 10 });
  });
});

describe('an answer', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name' },
      registered: { type: 'string', format: 'date', title: 'Registered' },
      address: { type: 'object', title: 'Address', properties: { city: { type: 'string', title: 'City' } } },
      code: { type: 'string' },
    },
  };

  it('lists the fields in the schema order, nested objects flattened under their title, untitled ones by name', () => {
    expect(resultFields(schema).map((f) => [f.pointer, f.title])).toEqual([
      ['/name', 'Name'],
      ['/registered', 'Registered'],
      ['/address/city', 'Address › City'],
      ['/code', 'code'],
    ]);
  });

  it('takes the rows of a table at its pointer, their columns from the items, the rest as facts', () => {
    const result: IntegrationMethodInfo['result'] = {
      view: 'table',
      rows: '/items',
      schema: {
        type: 'object',
        properties: {
          total: { type: 'integer', title: 'Total' },
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: { region: { type: 'string', title: 'Region' }, price: { type: 'number', title: 'Price' } },
            },
          },
        },
      },
    };
    const table = resultTable(result, { total: 2, items: [{ region: 'A', price: 1 }, { region: 'B' }, 'junk'] });
    expect(table.rows).toEqual([{ region: 'A', price: 1 }, { region: 'B' }]);
    expect(table.columns.map((c) => c.title)).toEqual(['Region', 'Price']);
    expect(table.facts.map((f) => f.pointer)).toEqual(['/total']);
    expect(resultTable(result, { total: 0 }).rows).toEqual([]);
  });

  it('shows dates as DD.MM.YYYY, moments in Tashkent, numbers grouped, yes/no, lists and objects in words', () => {
    expect(displayValue('2015-03-12', { format: 'date' }, ctx)).toBe('12.03.2015');
    expect(displayValue('2024-03-05T19:30:00Z', { format: 'date-time' }, ctx)).toBe('06.03.2024 00:30');
    expect(displayValue(1234567.5, { type: 'number' }, ctx)).toBe('1 234 567,5');
    expect(displayValue(true, { type: 'boolean' }, ctx)).toBe('Да');
    expect(displayValue(['a', '', 'b'], { type: 'array' }, ctx)).toBe('a, b');
    expect(
      displayValue({ city: 'Toshkent', zip: '' }, { type: 'object', properties: { city: { title: 'City' } } }, ctx),
    ).toBe('City: Toshkent');
    expect(displayValue(null, {}, ctx)).toBe('');
    expect(displayValue('not a date', { format: 'date' }, ctx)).toBe('not a date');
  });
});

describe('the audit in the address', () => {
  it('reads known filters and drops malformed ones, and writes them back', () => {
    const state = readAuditState(
      new URLSearchParams(
        'from=2026-01-02&to=02.01.2026&agency=a&user=%20ivanov%20&outcome=bogus&personalData=true&page=2',
      ),
    );
    expect(state).toEqual({
      filters: { from: '2026-01-02', agency: 'a', user: 'ivanov', personalData: true },
      page: 2,
    });
    expect(writeAuditState(state).toString()).toBe('from=2026-01-02&agency=a&user=ivanov&personalData=true&page=2');
    expect(readAuditState(new URLSearchParams('outcome=failed&personalData=false&page=-1'))).toEqual({
      filters: { outcome: 'failed', personalData: false },
      page: 0,
    });
  });

  it('knows a reversed day range and writes masked parameters as one line', () => {
    expect(isReversed({ from: '2026-02-01', to: '2026-01-01' })).toBe(true);
    expect(isReversed({ from: '2026-01-01', to: '2026-01-01' })).toBe(false);
    expect(paramsLine({ pinfl: '31••••••••••12', kind: 'x' })).toBe('pinfl=31••••••••••12, kind=x');
  });
});
