import { describe, expect, it } from 'vitest';
import { createServerAjv } from '../../src/server/validation.ts';
import { toFieldProblems } from '../../src/shared/validation/field-errors.ts';
import { localizedName, pickLocale } from '../../src/shared/locales.ts';

const ajv = createServerAjv();
const check = (schema: object, value: unknown) => {
  const validate = ajv.compile(schema);
  return validate(value) ? [] : toFieldProblems(validate.errors);
};
const format = (name: string) => ({ type: 'string', format: name });

describe('the portal formats', () => {
  it.each([
    ['phoneNumber', '+99890-123-45-67', true],
    ['phoneNumber', '99890-123-45-67', true],
    ['phoneNumber', '+99890-123-45-678', false], // anchored: the legacy rule accepted trailing junk
    ['phoneNumber', '+99890 123 45 67', false],
    ['phoneOrEmail', 'a@b.uz', true],
    ['phoneOrEmail', '+99890-123-45-67', true],
    ['phoneOrEmail', 'nonsense', false],
    ['stir', '123456789', true],
    ['stir', '12345678', false],
    ['stir', '1234567890', false],
    ['pinfl', '31234567890123', true],
    ['pinfl', '3123456789012', false],
    ['mxik', '12345678901234567', true],
    ['mxik', '1234567890123456a', false],
    ['postIndex', '100000', true],
    ['integer', '-42', true],
    ['integer', '4.2', false],
    ['double', '4,25', true],
    ['double', '4.', false],
  ])('%s accepts %s: %s', (name, value, ok) => {
    const problems = check(format(name), value);
    expect(problems.length === 0).toBe(ok);
    if (!ok) expect(problems[0]!.key).toBe(`validation.${name}`);
  });

  it('positive is ≥ 0 and positiveNotZero is > 0', () => {
    expect(check({ type: 'number', positive: true }, 0)).toEqual([]);
    expect(check({ type: 'number', positive: true }, -0.01)[0]!.key).toBe('validation.positive');
    expect(check({ type: 'number', positiveNotZero: true }, 0)[0]!.key).toBe('validation.positiveNotZero');
    expect(check({ type: 'number', positiveNotZero: true }, 0.5)).toEqual([]);
  });

  it('names the JSON pointer of every failing field, once', () => {
    const problems = check(
      {
        type: 'object',
        additionalProperties: false,
        required: ['a', 'b'],
        properties: {
          a: { type: 'string', maxLength: 2 },
          b: { type: 'integer' },
          c: { type: 'object', required: ['d'], properties: { d: { type: 'string' } } },
        },
      },
      { a: 'abc', c: {}, x: 1 },
    );
    const byPointer = (a: { pointer: string }, b: { pointer: string }) => a.pointer.localeCompare(b.pointer);
    expect([...problems].sort(byPointer)).toEqual([
      { pointer: '/a', key: 'validation.maxLength', params: { limit: 2 } },
      { pointer: '/b', key: 'validation.required', params: {} },
      { pointer: '/c/d', key: 'validation.required', params: {} },
      { pointer: '/x', key: 'validation.unknownField', params: {} },
    ]);
  });
});

describe('locales', () => {
  it('maps Accept-Language to the four locales, defaulting to uzCyrillic', () => {
    expect(pickLocale('ru-RU,ru;q=0.9')).toBe('ru');
    expect(pickLocale('uz-Cyrl-UZ')).toBe('uzCyrillic');
    expect(pickLocale('uz-Latn')).toBe('uz');
    expect(pickLocale('en-GB')).toBe('en');
    expect(pickLocale('de')).toBe('uzCyrillic');
    expect(pickLocale(undefined)).toBe('uzCyrillic');
  });

  it('picks localized names with the fallback nameUz → nameLt → nameRu', () => {
    const item = { nameLt: 'Toshkent', nameUz: 'Тошкент', nameRu: 'Ташкент', nameEn: 'Tashkent' };
    expect(localizedName(item, 'uz')).toBe('Toshkent');
    expect(localizedName(item, 'uzCyrillic')).toBe('Тошкент');
    expect(localizedName(item, 'ru')).toBe('Ташкент');
    expect(localizedName(item, 'en')).toBe('Tashkent');
    expect(localizedName({ nameLt: 'Toshkent', nameRu: 'Ташкент' }, 'en')).toBe('Toshkent');
    expect(localizedName({ nameRu: 'Ташкент' }, 'uz')).toBe('Ташкент');
  });
});
