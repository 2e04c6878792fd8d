// @vitest-environment happy-dom
/**
 * The error summary of a form (GOV.UK pattern): after an invalid submit a box on top says
 * "There is a problem", lists each error as a link to its field in the order of the form, takes
 * the focus, and a link moves the focus to its field; field-level messages stay.
 */
import { act, waitFor, within } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { EntityForm } from './EntityForm.tsx';
import { createFakeDataProvider, createTestI18n, fieldElement, Providers, renderEntityForm } from './testing.tsx';

const schema: RJSFSchema = {
  type: 'object',
  required: ['surname', 'customer', 'shortDescription'],
  properties: {
    shortDescription: { title: 'test.field.shortDescription', type: 'string', minLength: 3 },
    email: { title: 'test.field.email', type: 'string', format: 'email' },
    customer: {
      title: 'test.field.customer',
      type: 'object',
      required: ['pnfl'],
      properties: { pnfl: { title: 'test.field.pnfl', type: 'string', minLength: 14 } },
    },
    surname: { title: 'test.field.surname', type: 'string' },
  },
};
// The form's order is not the schema's: the summary follows the form.
const uiSchema = { 'ui:order': ['surname', 'customer', 'shortDescription', 'email'] };

const summary = () => document.querySelector<HTMLElement>('[data-region="error-summary"]');

describe('error summary', () => {
  it('appears after an invalid submit, focused, linking each error to its field in the order of the form', async () => {
    const { handle, onSubmit, user, container } = renderEntityForm({ schema, uiSchema });
    expect(summary()).toBeNull();
    await act(async () => handle.current!.submit());
    const box = await waitFor(() => summary() ?? Promise.reject(new Error('no summary')));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(box.getAttribute('role')).toBe('alert');
    expect(document.getElementById(box.getAttribute('aria-labelledby')!)!.textContent).toBe('There is a problem');
    await waitFor(() => expect(document.activeElement).toBe(box));
    const links = [...box.querySelectorAll<HTMLAnchorElement>('a[data-error-link]')];
    expect(links.map((a) => a.dataset.errorLink)).toEqual(['/surname', '/customer/pnfl', '/shortDescription']);
    expect(links[0]!.textContent).toBe('Surname: Mandatory field');
    expect(links[1]!.getAttribute('href')).toBe('#root_customer_pnfl');
    // The fields keep their own messages.
    expect(fieldElement(container, '/shortDescription').textContent).toContain('Mandatory field');

    await user.click(within(box).getByText('Short description: Mandatory field'));
    expect(document.activeElement).toBe(fieldElement(container, '/shortDescription').querySelector('input'));
  });

  it('takes the focus again on the next failed submit and goes once the data is valid', async () => {
    const { handle, onSubmit, user, container } = renderEntityForm({ schema, uiSchema });
    await act(async () => handle.current!.submit());
    const box = await waitFor(() => summary() ?? Promise.reject(new Error('no summary')));
    await user.type(fieldElement(container, '/surname').querySelector('input')!, 'Karimov');
    await act(async () => handle.current!.submit());
    await waitFor(() => expect(document.activeElement).toBe(summary()));
    expect([...summary()!.querySelectorAll('a')].map((a) => a.dataset.errorLink)).toEqual([
      '/customer/pnfl',
      '/shortDescription',
    ]);
    expect(box.isConnected).toBe(true);
    await user.type(fieldElement(container, '/customer/pnfl').querySelector('input')!, '12345678901234');
    await user.type(fieldElement(container, '/shortDescription').querySelector('input')!, 'Prices');
    await act(async () => handle.current!.submit());
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(summary()).toBeNull();
  });

  it('lists only the errors of the fields a wizard step checks, and the server’s errors too', async () => {
    const { handle } = renderEntityForm({
      schema,
      uiSchema,
      formData: { surname: 'Karimov', shortDescription: 'Prices' },
      serverErrors: { '/surname': 'Already registered' },
    });
    let valid = true;
    act(() => {
      valid = handle.current!.validateFields(['/customer']);
    });
    expect(valid).toBe(false);
    const box = await waitFor(() => summary() ?? Promise.reject(new Error('no summary')));
    expect([...box.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Personal ID (PINFL): Mandatory field']);
    act(() => {
      valid = handle.current!.validateFields();
    });
    await waitFor(() =>
      expect([...summary()!.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
        'Surname: Already registered',
        'Personal ID (PINFL): Mandatory field',
      ]),
    );
  });

  it('lists the field errors of a server’s 400 reply when they arrive', async () => {
    const { rerender, handle } = renderEntityForm({
      schema,
      uiSchema,
      formData: { surname: 'Karimov', shortDescription: 'Prices', customer: { pnfl: '12345678901234' } },
    });
    expect(handle.current).toBeTruthy();
    expect(summary()).toBeNull();
    rerender(
      <Providers dataProvider={createFakeDataProvider()} i18n={createTestI18n()}>
        <EntityForm
          entity="sample"
          schema={schema}
          uiSchema={uiSchema}
          formData={{ surname: 'Karimov', shortDescription: 'Prices', customer: { pnfl: '12345678901234' } }}
          onSubmit={() => {}}
          serverErrors={{ '/customer/pnfl': 'Already registered' }}
        />
      </Providers>,
    );
    const box = await waitFor(() => summary() ?? Promise.reject(new Error('no summary')));
    expect([...box.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'Personal ID (PINFL): Already registered',
    ]);
  });

  it('is not shown on a read-only form nor when a screen turns it off', async () => {
    const { handle } = renderEntityForm({ schema, uiSchema, errorSummary: false });
    await act(async () => handle.current!.submit());
    await waitFor(() => expect(document.querySelector('[data-field="/surname"]')!.textContent).toContain('Mandatory'));
    expect(summary()).toBeNull();
  });
});
