// @vitest-environment happy-dom
import { createRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import Form from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import { EntityForm, type EntityFormHandle } from './EntityForm.tsx';
import { fieldElement, renderWithProviders } from './testing.tsx';
import { withReadOnlyFields } from './uiSchema.ts';

// Titles are real keys of en.json, so the test sees the texts people see.
const schema: RJSFSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['applicantType', 'customer', 'shortDescription'],
  properties: {
    applicantType: {
      title: 'test.field.applicantType',
      type: 'string',
      oneOf: [
        { const: 'INDIVIDUAL', title: 'test.option.INDIVIDUAL' },
        { const: 'LEGAL', title: 'test.option.LEGAL' },
      ],
    },
    shortDescription: { title: 'test.field.shortDescription', type: 'string', minLength: 3, maxLength: 500 },
    email: { title: 'test.field.email', type: 'string', format: 'email' },
    customer: {
      title: 'test.field.customer',
      type: 'object',
      required: ['surname', 'pnfl'],
      properties: {
        surname: { title: 'test.field.surname', type: 'string', minLength: 1 },
        pnfl: { title: 'test.field.pnfl', type: 'string', format: 'pinfl' },
      },
    },
    participants: {
      title: 'test.field.participants',
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: { title: 'test.field.participantName', type: 'string', minLength: 1 } },
      },
    },
  },
};
const uiSchema = {
  'ui:order': ['applicantType', 'customer', 'shortDescription', 'email', 'participants'],
  applicantType: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
  customer: { pnfl: { 'ui:widget': 'pinfl' } },
};

/** The row (with its buttons) around a list item's field. */
const row = (container: HTMLElement, pointer: string): HTMLElement =>
  fieldElement(container, pointer).closest<HTMLElement>('[data-row]')!;

function renderForm(props: Partial<Parameters<typeof EntityForm>[0]> = {}) {
  const handle = createRef<EntityFormHandle>();
  const onSubmit = vi.fn();
  const onChange = vi.fn();
  const view = renderWithProviders(
    <EntityForm
      entity="sample"
      schema={schema}
      uiSchema={uiSchema}
      formData={{}}
      onSubmit={onSubmit}
      onChange={onChange}
      formRef={handle}
      {...props}
    />,
  );
  return { ...view, handle, onSubmit, onChange };
}

describe('EntityForm', () => {
  it('renders the entity root and a data-field pointer on every field, nested ones included', async () => {
    const { container } = renderForm({ formData: { participants: [{ name: 'A' }, { name: 'B' }] } });
    expect(container.querySelector('[data-entity="sample"]')).not.toBeNull();
    for (const p of [
      '/applicantType',
      '/customer',
      '/customer/surname',
      '/customer/pnfl',
      '/participants',
      '/participants/0',
      '/participants/1/name',
    ]) {
      expect(fieldElement(container, p)).toBeTruthy();
    }
  });

  it('translates titles and option titles, and marks required fields', () => {
    const { container } = renderForm();
    expect(screen.getByText('Applicant details')).toBeTruthy(); // group title of the nested object
    expect(screen.getByRole('radio', { name: 'Legal entity' })).toBeTruthy();
    const surname = fieldElement(container, '/customer/surname');
    expect(within(surname).getByText('Surname')).toBeTruthy();
    expect(surname.textContent).toContain('*');
    expect(screen.getByLabelText(/Short description/)).toBeTruthy();
  });

  it('validates a required field as it changes and an optional one only when it loses focus', async () => {
    const { container, user } = renderForm();
    await user.type(screen.getByLabelText(/Short description/), 'ab');
    expect(fieldElement(container, '/shortDescription').textContent).toContain(
      'Below the minimum length (3 characters)',
    );

    const email = screen.getByLabelText(/E-mail/);
    await user.type(email, 'not-an-address');
    expect(fieldElement(container, '/email').textContent).not.toContain('Invalid e-mail format');
    await user.tab();
    await waitFor(() => expect(fieldElement(container, '/email').textContent).toContain('Invalid e-mail format'));
    // Untouched required fields stay quiet until someone asks.
    expect(fieldElement(container, '/customer/surname').textContent).not.toContain('Mandatory field');
  });

  it('validates only the fields of a step and shows their errors', async () => {
    const { container, handle } = renderForm({ formData: { shortDescription: 'long enough' } });
    let valid = true;
    act(() => {
      valid = handle.current!.validateFields(['/shortDescription']);
    });
    expect(valid).toBe(true);
    act(() => {
      valid = handle.current!.validateFields(['/customer']);
    });
    expect(valid).toBe(false);
    await waitFor(() => expect(fieldElement(container, '/customer/surname').textContent).toContain('Mandatory field'));
    expect(fieldElement(container, '/customer/pnfl').textContent).toContain('Mandatory field');
    expect(fieldElement(container, '/applicantType').textContent).not.toContain('Mandatory field');
  });

  it('puts server errors on their fields until the field changes', async () => {
    const { container, user } = renderForm({
      formData: { customer: { surname: 'Karimov', pnfl: '12345678901234' } },
      serverErrors: { '/customer/pnfl': 'This personal ID is already registered' },
    });
    const pnfl = fieldElement(container, '/customer/pnfl');
    await waitFor(() => expect(pnfl.textContent).toContain('This personal ID is already registered'));
    await user.type(within(pnfl).getByRole('textbox'), '{Backspace}5');
    await waitFor(() => expect(pnfl.textContent).not.toContain('This personal ID is already registered'));
  });

  it('submits valid data and refuses invalid data, showing every error', async () => {
    const { container, handle, onSubmit } = renderForm();
    act(() => handle.current!.submit());
    await waitFor(() => expect(fieldElement(container, '/shortDescription').textContent).toContain('Mandatory field'));
    expect(onSubmit).not.toHaveBeenCalled();

    const valid = {
      applicantType: 'LEGAL',
      shortDescription: 'A shop overcharges',
      customer: { surname: 'Karimov', pnfl: '12345678901234' },
    };
    const second = renderForm({ formData: valid });
    act(() => second.handle.current!.submit());
    await waitFor(() => expect(second.onSubmit).toHaveBeenCalledTimes(1));
    expect(second.onSubmit.mock.calls[0]![0]).toMatchObject(valid);
  });

  it('renders only the fields of a wizard step and keeps the rest of the data', async () => {
    const { container, user, onChange } = renderForm({
      fields: ['/shortDescription'],
      formData: { customer: { surname: 'Karimov', pnfl: '12345678901234' }, applicantType: 'LEGAL' },
    });
    expect(container.querySelector('[data-field="/customer"]')).toBeNull();
    expect(container.querySelector('[data-field="/applicantType"]')).toBeNull();
    await user.type(screen.getByLabelText(/Short description/), 'x');
    const last = onChange.mock.calls.at(-1)![0] as Record<string, unknown>;
    expect(last).toMatchObject({
      shortDescription: 'x',
      applicantType: 'LEGAL',
      customer: { surname: 'Karimov', pnfl: '12345678901234' },
    });
  });

  it('adds, moves and removes rows of a list', async () => {
    const { container, user, onChange } = renderForm({ formData: { participants: [{ name: 'First' }] } });
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    expect(fieldElement(container, '/participants/1/name')).toBeTruthy();
    await user.type(within(fieldElement(container, '/participants/1/name')).getByRole('textbox'), 'Second');
    await user.click(within(row(container, '/participants/0')).getByRole('button', { name: 'Move down' }));
    expect((onChange.mock.calls.at(-1)![0] as { participants: unknown }).participants).toEqual([
      { name: 'Second' },
      { name: 'First' },
    ]);
    await user.click(within(row(container, '/participants/1')).getByRole('button', { name: 'Remove row' }));
    expect((onChange.mock.calls.at(-1)![0] as { participants: unknown }).participants).toEqual([{ name: 'Second' }]);
  });

  it('renders every widget read-only on a detail page, with no list buttons', () => {
    const { container } = renderForm({
      readOnly: true,
      formData: {
        applicantType: 'LEGAL',
        shortDescription: 'Text',
        customer: { surname: 'Karimov' },
        participants: [{ name: 'A' }],
      },
    });
    for (const input of container.querySelectorAll('input:not([type=hidden])'))
      expect(input.hasAttribute('readonly') || input.hasAttribute('disabled')).toBe(true);
    expect((within(fieldElement(container, '/applicantType')).getByRole('textbox') as HTMLInputElement).value).toBe(
      'Legal entity',
    );
    expect(screen.queryByRole('button', { name: 'Add row' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove row' })).toBeNull();
  });

  it('falls back to the default widget of the type for an unknown widget name', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { container } = renderForm({
      uiSchema: { ...uiSchema, shortDescription: { 'ui:widget': 'sparkles' } },
      formData: { shortDescription: 'Kept' },
    });
    expect((within(fieldElement(container, '/shortDescription')).getByRole('textbox') as HTMLInputElement).value).toBe(
      'Kept',
    );
    warn.mockRestore();
  });

  it('shows validation messages in the current language', async () => {
    const { container, handle, i18n } = renderForm();
    act(() => {
      handle.current!.validateFields(['/shortDescription']);
    });
    await waitFor(() => expect(fieldElement(container, '/shortDescription').textContent).toContain('Mandatory field'));
    i18n.addResourceBundle('ru', 'translation', { validation: { required: 'Обязательное поле' } }, true, true);
    await act(async () => {
      await i18n.changeLanguage('ru');
    });
    expect(fieldElement(container, '/shortDescription').textContent).toContain('Обязательное поле');
  });

  it('renders the fields a user may not change read-only (nested ones too) and the rest editable', () => {
    const { container } = renderForm({
      uiSchema: withReadOnlyFields(uiSchema, ['/customer', '/email']),
      formData: { customer: { surname: 'Karimov', pnfl: '31234567890123' }, email: 'a@b.uz', shortDescription: 'Text' },
    });
    const input = (pointer: string) => fieldElement(container, pointer).querySelector('input')!;
    expect(input('/customer/surname').readOnly).toBe(true);
    expect(input('/customer/pnfl').readOnly).toBe(true);
    expect(input('/email').readOnly).toBe(true);
    expect(input('/shortDescription').readOnly).toBe(false);
    // The shared uiSchema is not changed by marking a copy.
    expect(uiSchema.customer).toEqual({ pnfl: { 'ui:widget': 'pinfl' } });
  });
  it('derives the form state once per keystroke when the screen stores what onChange gives, and takes new data from outside', () => {
    // rjsf derives its state (defaults, conditions: every row of a list) in getStateFromProps;
    // the data coming back from the screen must not make it do that again.
    const derive = vi.spyOn(Form.prototype, 'getStateFromProps');
    const initial = { shortDescription: 'abc', participants: [{ name: 'A' }] };
    let set: (data: Record<string, unknown>) => void = () => undefined;
    let stored: Record<string, unknown> = initial;
    function Screen() {
      const [data, setData] = useState<Record<string, unknown>>(initial);
      set = setData;
      stored = data;
      return (
        <EntityForm
          entity="sample"
          schema={schema}
          uiSchema={uiSchema}
          formData={data}
          onChange={setData}
          onSubmit={() => undefined}
        />
      );
    }
    const { container } = renderWithProviders(<Screen />);
    const name = fieldElement(container, '/participants/0/name').querySelector('input')!;
    fireEvent.change(name, { target: { value: 'AB' } });
    derive.mockClear();
    fireEvent.change(name, { target: { value: 'ABC' } });
    expect(derive).toHaveBeenCalledTimes(1);
    derive.mockRestore();
    expect(stored).toMatchObject({ participants: [{ name: 'ABC' }] });
    expect(name.value).toBe('ABC');
    // Data from outside still replaces what was typed, even the very object the form began with.
    act(() => set(initial));
    expect(fieldElement(container, '/participants/0/name').querySelector('input')!.value).toBe('A');
    act(() => set({ shortDescription: 'new text', participants: [] }));
    expect(
      fieldElement(container, '/shortDescription').querySelector<HTMLInputElement | HTMLTextAreaElement>(
        'input, textarea',
      )!.value,
    ).toBe('new text');
  });
});
