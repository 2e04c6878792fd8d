// @vitest-environment happy-dom
/**
 * The staff picker: a field marked `staffUser` gets it without any `ui:widget` (as in a
 * machine's payload), searches the staff directory by name, shows "Last First Middle —
 * unit", stores the user id, and shows a stored id by its name — also read-only.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen as dom, waitFor } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { createScriptedDataProvider, renderEntityForm } from '../testing.tsx';

const schema = {
  type: 'object',
  properties: {
    executorId: { type: 'integer', minimum: 1, title: 'test.text', staffUser: true },
    count: { type: 'integer', title: 'test.text' },
  },
} as RJSFSchema;
const KARIMOV = { id: 12, name: 'Karimov Aziz Olimovich', unit: 'Consumer protection' };

function directory() {
  const call = vi.fn(async (method: string, path: string, options?: { query?: Record<string, unknown> }) => {
    if (method !== 'GET' || path !== '/api/staff-users') throw new Error(`unexpected ${method} ${path}`);
    const params = options?.query ?? {};
    if (params.ids) return { list: String(params.ids).split(',').map(Number).includes(12) ? [KARIMOV] : [] };
    return {
      list: String(params.search).toLowerCase().startsWith('kar')
        ? [KARIMOV, { id: 15, name: 'Karimova Dilnoza', unit: null }]
        : [],
    };
  });
  return { call, dataProvider: createScriptedDataProvider(call) };
}

describe('staff picker', () => {
  it('searches staff by name, shows name and unit, stores the user id', async () => {
    const { call, dataProvider } = directory();
    const onChange = vi.fn();
    const { user } = renderEntityForm({ schema, uiSchema: {}, formData: {}, onChange }, { dataProvider });
    const input = document.querySelector<HTMLInputElement>('[data-field="/executorId"] input')!;
    // A plain integer field keeps its number input.
    expect(document.querySelector('[data-field="/count"] [data-widget="staffUser"]')).toBeNull();
    await user.type(input, 'Kar');
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith('GET', '/api/staff-users', { query: { search: 'Kar', limit: 20 } }),
    );
    expect(await dom.findByRole('option', { name: 'Karimova Dilnoza' })).toBeTruthy();
    await user.click(await dom.findByRole('option', { name: 'Karimov Aziz Olimovich — Consumer protection' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ executorId: 12 })));
    await waitFor(() => expect(input.value).toBe('Karimov Aziz Olimovich — Consumer protection'));
  });

  it('shows a stored id by the name on a read-only page', async () => {
    const { dataProvider } = directory();
    renderEntityForm({ schema, uiSchema: {}, formData: { executorId: 12 }, readOnly: true }, { dataProvider });
    await waitFor(() =>
      expect(document.querySelector<HTMLInputElement>('[data-field="/executorId"] input')!.value).toBe(
        'Karimov Aziz Olimovich — Consumer protection',
      ),
    );
  });

  it('shows an id that is no longer staff as a marked number', async () => {
    const { call, dataProvider } = directory();
    renderEntityForm({ schema, uiSchema: {}, formData: { executorId: 99 }, readOnly: true }, { dataProvider });
    await waitFor(() => expect(call).toHaveBeenCalledWith('GET', '/api/staff-users', { query: { ids: '99' } }));
    await waitFor(() =>
      expect(document.querySelector<HTMLInputElement>('[data-field="/executorId"] input')!.value).toBe('#99'),
    );
  });
});
