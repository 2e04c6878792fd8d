// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { isoToDisplay, toIsoDate } from '../dates.ts';
import { fieldElement, renderEntityForm } from '../testing.tsx';

const schema = {
  type: 'object',
  properties: {
    docDate: { title: 'test.field.docDate', type: 'string', format: 'date' },
    validUntil: { title: 'test.field.validUntil', type: 'string', format: 'date' },
    hearingAt: { title: 'test.field.hearingAt', type: 'string', format: 'date-time' },
  },
} as RJSFSchema;
const uiSchema = {
  docDate: { 'ui:widget': 'date', 'ui:options': { disableFuture: true } },
  validUntil: { 'ui:widget': 'date', 'ui:options': { disablePast: true } },
  hearingAt: { 'ui:widget': 'date-time' },
};

const dateInput = (container: HTMLElement, pointer: string) =>
  within(fieldElement(container, pointer)).getByRole('textbox') as HTMLInputElement;

describe('date widget', () => {
  it('takes DD.MM.YYYY and stores YYYY-MM-DD', async () => {
    const { user, data, container } = renderEntityForm({ schema, uiSchema });
    await user.type(dateInput(container, '/docDate'), '12052024');
    expect(dateInput(container, '/docDate').value).toBe('12.05.2024');
    expect(data().docDate).toBe('2024-05-12');
  });

  it('shows a stored YYYY-MM-DD as DD.MM.YYYY', () => {
    const { container } = renderEntityForm({ schema, uiSchema, formData: { docDate: '2023-01-31' } });
    expect(dateInput(container, '/docDate').value).toBe('31.01.2023');
  });

  it('picks a day in the calendar', async () => {
    const { user, data, container } = renderEntityForm({ schema, uiSchema, formData: { docDate: '2024-05-12' } });
    await user.click(within(fieldElement(container, '/docDate')).getByRole('button', { name: 'Open the calendar' }));
    await user.click(await screen.findByRole('button', { name: '15.05.2024' }));
    expect(data().docDate).toBe('2024-05-15');
    await waitFor(() => expect(dateInput(container, '/docDate').value).toBe('15.05.2024'));
  });

  it('disables future days when asked, and refuses a typed future date', async () => {
    const { user, data, container } = renderEntityForm({ schema, uiSchema });
    await user.click(within(fieldElement(container, '/docDate')).getByRole('button', { name: 'Open the calendar' }));
    const today = isoToDisplay(toIsoDate(new Date()))!;
    expect((await screen.findByRole('button', { name: today })).hasAttribute('disabled')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    const days = within(document.querySelector<HTMLElement>('[data-calendar]')!).getAllByRole('button', {
      name: /^\d{2}\.\d{2}\.\d{4}$/,
    });
    expect(days.length).toBeGreaterThan(27);
    expect(days.every((d) => d.hasAttribute('disabled'))).toBe(true);
    await user.keyboard('{Escape}');

    await user.type(dateInput(container, '/docDate'), '01012999');
    expect(fieldElement(container, '/docDate').textContent).toContain('A date after today cannot be chosen');
    expect(data().docDate).toBe('01.01.2999'); // not a date, so it cannot be saved
  });

  it('disables past days when asked', async () => {
    const { user, container } = renderEntityForm({ schema, uiSchema });
    await user.click(within(fieldElement(container, '/validUntil')).getByRole('button', { name: 'Open the calendar' }));
    await user.click(await screen.findByRole('button', { name: 'Previous month' }));
    const days = within(document.querySelector<HTMLElement>('[data-calendar]')!).getAllByRole('button', {
      name: /^\d{2}\.\d{2}\.\d{4}$/,
    });
    expect(days.every((d) => d.hasAttribute('disabled'))).toBe(true);
  });
});

describe('date-time widget', () => {
  it('takes DD.MM.YYYY hh:mm and stores an ISO moment, and shows it back', async () => {
    const { user, data, container } = renderEntityForm({ schema, uiSchema });
    await user.type(dateInput(container, '/hearingAt'), '120520240930');
    expect(dateInput(container, '/hearingAt').value).toBe('12.05.2024 09:30');
    expect(data().hearingAt).toBe(new Date(2024, 4, 12, 9, 30).toISOString());

    const again = renderEntityForm({
      schema,
      uiSchema,
      formData: { hearingAt: new Date(2023, 11, 1, 14, 5).toISOString() },
    });
    expect(dateInput(again.container, '/hearingAt').value).toBe('01.12.2023 14:05');
  });
});
