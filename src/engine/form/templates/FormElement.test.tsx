// @vitest-environment happy-dom
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, waitFor } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { EntityForm, type EntityFormHandle } from '../EntityForm.tsx';
import { renderWithProviders } from '../testing.tsx';
import { LONG_LIST } from '../row-commit.ts';

const schema: RJSFSchema = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', title: 'Name' }, rows: { type: 'array', items: { type: 'string' } } },
};

function renderForm(formData: Record<string, unknown>) {
  const handle = createRef<EntityFormHandle>();
  const onSubmit = vi.fn();
  const onChange = vi.fn();
  const view = renderWithProviders(
    <EntityForm
      entity="sample"
      id="sample-form"
      schema={schema}
      formData={formData}
      onSubmit={onSubmit}
      onChange={onChange}
      formRef={handle}
    >
      <button type="submit">Send</button>
    </EntityForm>,
  );
  const form = view.container.querySelector('form')!;
  return { ...view, form, handle, onSubmit, onChange };
}

const longRows = Array.from({ length: LONG_LIST }, (_, i) => `row ${i}`);

describe('FormElement (the <form> of an EntityForm)', () => {
  // happy-dom's form element hides expando properties (React's own among them) from Object.keys:
  // which form React renders is told by FormElement's box-less host around it.
  const outsideReact = (form: HTMLFormElement) => (form.parentElement as HTMLElement).style.display === 'contents';

  it('is, for a form that opens with a long list, a form React keeps no props or fiber on, so it never looks up its controls by name per key press', () => {
    const { form } = renderForm({ name: 'A', rows: Array.from({ length: LONG_LIST }, (_, i) => `row ${i}`) });
    expect(form.id).toBe('sample-form');
    expect(form.noValidate).toBe(true);
    expect(form.className).toContain('rjsf');
    expect(form.querySelector(`#root_rows_${LONG_LIST - 1}`)).not.toBeNull();
    expect(outsideReact(form)).toBe(true);
  });

  it('leaves any other form to React (a prerendered form is adopted as it was drawn)', () => {
    const { form } = renderForm({ name: 'A', rows: Array.from({ length: LONG_LIST - 1 }, (_, i) => `row ${i}`) });
    expect(form.id).toBe('sample-form');
    expect(outsideReact(form)).toBe(false);
  });

  it('types, submits once through its button and through the handle, and reports the data typed', async () => {
    const { form, handle, onSubmit, onChange, getByRole } = renderForm({ name: '', rows: longRows });
    const input = form.querySelector<HTMLInputElement>('#root_name')!;
    fireEvent.change(input, { target: { value: 'Typed' } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'Typed' })));
    fireEvent.click(getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ name: 'Typed' });
    act(() => handle.current!.submit());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2));
  });

  it('a submit with errors still shows them on the fields', async () => {
    const { form, onSubmit, getByRole } = renderForm({ rows: longRows });
    fireEvent.click(getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(form.querySelector('[data-field="/name"]')!.textContent).toContain('Mandatory field'));
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
