// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { fieldElement, renderEntityForm } from '../testing.tsx';

const schema = {
  type: 'object',
  properties: {
    share: { title: 'test.field.sharePercent', type: 'number', minimum: 0, maximum: 100 },
    sides: { title: 'test.field.sides', type: 'integer', minimum: 1, maximum: 4 },
    lotNumber: { title: 'test.field.lotNumber', type: 'string', maxLength: 50 },
    subject: { title: 'test.field.subject', type: 'string' },
    executorId: { title: 'test.field.executorId', type: 'integer' },
    refunded: { title: 'test.field.refunded', type: 'boolean', default: false },
  },
} as RJSFSchema;
const uiSchema = {
  share: { 'ui:widget': 'number' },
  sides: { 'ui:widget': 'number' },
  lotNumber: { 'ui:widget': 'text' },
  subject: { 'ui:widget': 'textarea', 'ui:options': { rows: 3 } },
  executorId: { 'ui:widget': 'hidden' },
  refunded: { 'ui:widget': 'checkbox' },
};

const input = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

describe('number widget', () => {
  it('stores numbers as typed (comma or dot) and clamps to the schema bounds on blur', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema });
    await user.type(input(/Share/), '12,5');
    expect(data().share).toBe(12.5);
    await user.clear(input(/Share/));
    await user.type(input(/Share/), '120');
    expect(data().share).toBe(120);
    await user.tab();
    expect(data().share).toBe(100);
    expect(input(/Share/).value).toBe('100');
    await user.clear(input(/Share/));
    await user.type(input(/Share/), '-5');
    await user.tab();
    expect(data().share).toBe(0);
  });

  it('rounds an integer field and clamps it to its minimum', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema });
    await user.type(input(/Number of sides/), '0');
    await user.tab();
    expect(data().sides).toBe(1);
    await user.clear(input(/Number of sides/));
    await user.type(input(/Number of sides/), '2.6');
    await user.tab();
    expect(data().sides).toBe(3);
  });
});

describe('text, textarea, hidden and checkbox widgets', () => {
  it('stores text, and nothing for an emptied field', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema });
    await user.type(input(/Lot number/), 'L-17');
    expect(data().lotNumber).toBe('L-17');
    await user.clear(input(/Lot number/));
    expect(data().lotNumber).toBeUndefined();
    const subject = screen.getByLabelText(/Subject/) as HTMLTextAreaElement;
    expect(subject.tagName).toBe('TEXTAREA');
    expect(subject.getAttribute('rows')).toBe('3');
    await user.type(subject, 'line one{Enter}line two');
    expect(data().subject).toBe('line one\nline two');
  });

  it('keeps a hidden value without showing a field, and toggles a labelled checkbox', async () => {
    const { user, data, container } = renderEntityForm({ schema, uiSchema, formData: { executorId: 42 } });
    expect(fieldElement(container, '/executorId').hidden).toBe(true);
    expect(container.querySelector<HTMLInputElement>('[data-field="/executorId"] input[type=hidden]')!.value).toBe(
      '42',
    );
    await user.click(screen.getByRole('checkbox', { name: /refunded/i }));
    expect(data()).toMatchObject({ executorId: 42, refunded: true });
  });
});
