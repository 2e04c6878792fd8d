// @vitest-environment happy-dom
/**
 * The password sign-in is a real form: the button is its submit button (Enter signs in), the
 * fields tell the browser what they hold (autocomplete), and a refusal stays in the form as its
 * error summary with the focus on it — not a toast that fades.
 */
import { fireEvent, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../client/http.ts';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { createFakeDataProvider, renderWithProviders } from '../form/testing.tsx';
import login from '../../../screens/login.json';
import SignInScreen from './SignInScreen.tsx';

const screen = { ...login, options: { ...login.options, methods: ['password'], methodsEndpoint: undefined } };

function renderSignIn(signIn: (path: string, credentials: Record<string, unknown>) => Promise<never>) {
  const dataProvider = createFakeDataProvider({ signIn: vi.fn(signIn) });
  const view = renderWithProviders(
    <MemoryRouter initialEntries={['/login']}>
      <SignInScreen screen={screen as unknown as ScreenDefinition} />
    </MemoryRouter>,
    { dataProvider },
  );
  const input = (pointer: string) => document.querySelector<HTMLInputElement>(`[data-field="${pointer}"] input`)!;
  return { ...view, input };
}

describe('sign-in form', () => {
  it('is one form with its submit button inside and autocomplete hints', () => {
    const { input } = renderSignIn(() => Promise.reject(new Error('not called')));
    const button = document.querySelector<HTMLButtonElement>('[data-action="sign-in"]')!;
    expect(button.type).toBe('submit');
    expect(button.closest('form')).toBe(input('/username').closest('form'));
    expect(input('/username').getAttribute('autocomplete')).toBe('username');
    expect(input('/password').getAttribute('autocomplete')).toBe('current-password');
  });

  it('shows a wrong password in the form, focused, and keeps it there', async () => {
    const refuse = () => Promise.reject(new HttpError(401, { message: 'Wrong username or password' }, '401'));
    const { input, user } = renderSignIn(refuse);
    await user.type(input('/username'), 'admin');
    await user.type(input('/password'), 'wrong password!');
    // Submitting the form, as Enter in a field does.
    fireEvent.submit(input('/password').closest('form')!);
    const box = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-screen="login"] [data-region="error-summary"]');
      if (!el) throw new Error('no inline error');
      return el;
    });
    expect(box.getAttribute('role')).toBe('alert');
    expect(box.textContent).toContain('There is a problem');
    expect(box.textContent).toContain('Wrong username or password');
    await waitFor(() => expect(document.activeElement).toBe(box));
    // Its link takes the user to the password.
    await user.click(box.querySelector('a')!);
    expect(document.activeElement).toBe(input('/password'));
    expect(box.isConnected).toBe(true);
  });

  it('lists empty fields in the summary instead of sending', async () => {
    const signIn = vi.fn(() => Promise.reject(new Error('not called')));
    const { input } = renderSignIn(signIn);
    fireEvent.submit(input('/username').closest('form')!);
    const box = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-region="error-summary"]');
      if (!el) throw new Error('no summary');
      return el;
    });
    expect([...box.querySelectorAll('a')].map((a) => a.dataset.errorLink)).toEqual(['/username', '/password']);
    expect(signIn).not.toHaveBeenCalled();
  });
});
