/**
 * A record's name on its page and a value's name in the user's language (src/shared/record-title.ts):
 * "Aliyev Vali" instead of "Users № 13", "Администратор" instead of "admin".
 */
import { describe, expect, it } from 'vitest';
import type { JSONSchema7 } from 'json-schema';
import { recordTitle, valueLabel, valueLabelsOf } from '../../src/shared/record-title.ts';

const texts = (dict: Record<string, string>) => ({
  t: (key: string) => dict[key] ?? key,
  exists: (key: string) => key in dict,
});
const schema: JSONSchema7 = {
  type: 'object',
  properties: {
    code: { type: 'string', valueLabels: 'entity.role.role' } as JSONSchema7,
    codes: { type: 'array', items: { type: 'string', valueLabels: 'entity.role.role' } as JSONSchema7 },
    lastName: { type: 'string' },
    firstName: { type: 'string' },
  },
};

describe('record titles and value labels', () => {
  it('names a value by its text, and falls back to the value where there is none', () => {
    const ru = texts({ 'entity.role.role.admin': 'Администратор' });
    expect(valueLabelsOf(schema.properties!.codes as JSONSchema7)).toBe('entity.role.role');
    expect(valueLabel('admin', 'entity.role.role', ru)).toBe('Администратор');
    expect(valueLabel('auditor', 'entity.role.role', ru)).toBe('auditor');
    expect(valueLabel('admin', undefined, ru)).toBe('admin');
  });

  it("names a record by its titleFields, else its labelField, and '' when it has neither", () => {
    const ru = texts({ 'entity.role.role.admin': 'Администратор' });
    const person = { titleFields: ['/lastName', '/firstName'] };
    expect(recordTitle(person, schema, { lastName: 'Aliyev', firstName: 'Vali' }, ru)).toBe('Aliyev Vali');
    expect(recordTitle(person, schema, { firstName: ' Vali ' }, ru)).toBe('Vali');
    expect(recordTitle(person, schema, {}, ru)).toBe('');
    expect(recordTitle({ labelField: '/code' }, schema, { code: 'admin' }, ru)).toBe('Администратор');
    expect(recordTitle({}, schema, { code: 'admin' }, ru)).toBe('');
  });
});

describe('the label column format', () => {
  it("is derived for a field with valueLabels and shows the value's text, else the value", async () => {
    const { resolveColumnFormat } = await import('../../src/shared/format.ts');
    const { formatCell } = await import('../../src/shared/cell-formats.ts');
    const format = resolveColumnFormat({ field: '/code', titleKey: 't' }, schema);
    expect(format).toEqual({ kind: 'label', valueLabels: 'entity.role.role' });
    const ctx = {
      locale: 'ru' as const,
      translate: (k: string) => (k === 'entity.role.role.admin' ? 'Администратор' : undefined),
    };
    expect(formatCell('admin', format, ctx)).toBe('Администратор');
    expect(formatCell('auditor', format, ctx)).toBe('auditor');
    expect(formatCell(['admin', 'auditor'], resolveColumnFormat({ field: '/codes', titleKey: 't' }, schema), ctx)).toBe(
      'Администратор, auditor',
    );
  });
});
