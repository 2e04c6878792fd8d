// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { renderEntityForm } from '../testing.tsx';

const schema = {
  type: 'object',
  properties: {
    phone: { title: 'test.field.phone', type: 'string', format: 'phoneNumber' },
    pnfl: { title: 'test.field.pnfl', type: 'string', format: 'pinfl' },
    postIndex: { title: 'test.field.postIndex', type: 'string', format: 'postIndex' },
    price: { title: 'test.field.startingPrice', type: 'number', positive: true },
    mxik: { title: 'test.field.mxikCode', type: 'string', format: 'mxik' },
  },
} as RJSFSchema;
const uiSchema = {
  phone: { 'ui:widget': 'phone' },
  pnfl: { 'ui:widget': 'pinfl' },
  postIndex: { 'ui:widget': 'postIndex' },
  price: { 'ui:widget': 'money' },
};

const input = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

describe('phone widget', () => {
  it('masks typed digits as +998 ## ###-##-## and stores the canonical phoneNumber form', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema });
    await user.type(input(/Phone number/), '901234567');
    expect(input(/Phone number/).value).toBe('+998 90 123-45-67');
    expect(data().phone).toBe('+99890-123-45-67');
  });

  it('drops a pasted country code and shows a stored number masked', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema, formData: { phone: '+99871-200-00-01' } });
    expect(input(/Phone number/).value).toBe('+998 71 200-00-01');
    await user.clear(input(/Phone number/));
    await user.click(input(/Phone number/));
    await user.paste('+998 (93) 555 44 33');
    expect(data().phone).toBe('+99893-555-44-33');
  });

  it('stores an unfinished number so the format check complains about it', async () => {
    const { user, data, container } = renderEntityForm({ schema, uiSchema });
    await user.type(input(/Phone number/), '9012');
    expect(data().phone).toBe('+9989012');
    await user.tab();
    await waitFor(() =>
      expect(container.querySelector('[data-field="/phone"]')!.textContent).toContain(
        'Enter the phone number as +998 90-123-45-67',
      ),
    );
  });
});

describe('digit widgets', () => {
  it('keeps digits only, at most 14 for a PINFL and 6 for a post index', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema });
    await user.type(input(/Personal ID/), '1234a5678901234567');
    expect(input(/Personal ID/).value).toBe('12345678901234');
    await user.type(input(/Post index/), '10-00-159');
    expect(data()).toMatchObject({ pnfl: '12345678901234', postIndex: '100015' });
  });

  it('gives a format its widget without a ui:widget (a 17-digit classifier code)', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema });
    await user.type(input(/Classifier code/), '0123-4567-8901-2345-67');
    expect(data().mxik).toBe('01234567890123456');
  });
});

describe('money widget', () => {
  it('groups thousands with spaces while typing and stores a number', async () => {
    const { user, data } = renderEntityForm({ schema, uiSchema });
    await user.type(input(/Starting price/), '1234567');
    expect(input(/Starting price/).value).toBe('1 234 567');
    expect(data().price).toBe(1234567);
  });

  it('shows a stored amount without decimals', () => {
    renderEntityForm({ schema, uiSchema, formData: { price: 1234567.4 } });
    expect(input(/Starting price/).value).toBe('1 234 567');
  });
});
