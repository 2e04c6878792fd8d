// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { fieldElement, renderEntityForm } from '../testing.tsx';

const schema: RJSFSchema = {
  type: 'object',
  properties: {
    lastName: { title: 'test.field.surname', type: 'string' },
    password: { title: 'registration.field.password', type: 'string', maxLength: 128 },
  },
};
const uiSchema = {
  password: { 'ui:widget': 'newPassword', 'ui:options': { identity: { username: 'username', related: ['lastName'] } } },
};

/** The meter under the field (a chunk of its own: it appears after a moment), its reason text and its state. */
const meterOf = (container: HTMLElement) =>
  waitFor(() => {
    const meter = fieldElement(container, '/password').querySelector<HTMLElement>('[data-password-meter]');
    if (!meter) throw new Error('no meter yet');
    return { meter, reason: () => meter.querySelector('[data-password-reason]')!.textContent };
  });

describe('new-password widget', () => {
  it('shows the rules, then why a password is refused and, when it is good, that it meets them', async () => {
    const { user, container } = renderEntityForm({ schema, uiSchema, outside: { username: 'dilnoza' } });
    const input = within(fieldElement(container, '/password')).getByLabelText(/Password \(at least 12/);
    expect(input.getAttribute('type')).toBe('password');
    expect(input.getAttribute('autocomplete')).toBe('new-password');
    const { meter, reason } = await meterOf(container);
    expect(meter.dataset.passwordMeter).toBe('empty');
    await waitFor(() => expect(reason()).toMatch(/At least 12 characters/));
    expect(screen.getByRole('meter', { name: 'Password strength' })).toBeTruthy();

    await user.type(input, '12345678');
    await waitFor(() => expect(reason()).toBe('Password strength: Very weak. At least 12 characters (now 8)'));
    await user.clear(input);
    // The username comes from around the form (a flow's earlier step).
    await user.type(input, 'my Dilnoza harbour');
    await waitFor(() => expect(reason()).toContain('The password must not contain the username'));
    await user.clear(input);
    await user.type(input, 'password1234');
    await waitFor(() => expect(reason()).toContain('Too easy to guess: it is similar to a commonly used password'));
    expect(meter.dataset.acceptable).toBe('false');
    await user.clear(input);
    await user.type(input, 'olive kettle marathon 42');
    await waitFor(() => expect(meter.dataset.acceptable).toBe('true'));
    expect(reason()).toMatch(/^Password strength: (Strong|Very strong)\. The password meets the rules$/);
    expect(meter.querySelector('[data-password-reason]')!.getAttribute('aria-live')).toBe('polite');
  });

  it('weighs the sibling fields it names: a password made of the surname is weak', async () => {
    const { user, container } = renderEntityForm({ schema, uiSchema });
    await user.type(within(fieldElement(container, '/lastName')).getByRole('textbox'), 'Karimova');
    await user.type(
      within(fieldElement(container, '/password')).getByLabelText(/Password \(at least 12/),
      'Karimova1990!',
    );
    const { reason } = await meterOf(container);
    await waitFor(() => expect(reason()).toContain('it is built from your own data'));
  });
});
