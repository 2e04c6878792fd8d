// @vitest-environment happy-dom
/**
 * A dashboard's table over a paged list-search (the fuel stations: 661 rows, 20 a page): every
 * row is reachable through the pager, the count is shown, and a new filter starts at page one.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { createScriptedDataProvider, renderWithProviders } from '../form/testing.tsx';
import DashboardScreen from './DashboardScreen.tsx';

const TOTAL = 5;
const screen = {
  id: 'stations',
  route: '/stations',
  kind: 'dashboard',
  titleKey: 'test.gadget.title',
  permission: 'public',
  options: {
    filters: [
      { name: 'kind', titleKey: 'test.gadget.name', choices: [{ value: 'a', labelKey: 'test.gadget.answer' }] },
    ],
    panels: [
      {
        id: 'rows',
        titleKey: 'test.gadget.title',
        kind: 'table',
        source: { endpoint: '/api/x/list-search', method: 'POST', filters: ['kind'], body: { itemsPerPage: 2 } },
        columns: [{ field: 'name', titleKey: 'test.gadget.name' }],
      },
    ],
  },
} as unknown as ScreenDefinition;

const names = () => [...document.querySelectorAll('[data-cell="name"]')].map((c) => c.textContent);
const button = (name: string) =>
  document.querySelector<HTMLButtonElement>(`[data-panel="rows"] [data-action="${name}"]`)!;

describe('dashboard table over a paged source', () => {
  it('shows the count and pages through every row; a filter change starts again at page one', async () => {
    const call = vi.fn(async (_m: string, _p: string, options: { body: { page?: number; itemsPerPage: number } }) => {
      const page = options.body.page ?? 0;
      const list = Array.from({ length: TOTAL }, (_, i) => ({ name: `row ${i + 1}` })).slice(page * 2, page * 2 + 2);
      return { list, total: TOTAL };
    });
    const { user } = renderWithProviders(
      <MemoryRouter>
        <DashboardScreen screen={screen} />
      </MemoryRouter>,
      {
        dataProvider: createScriptedDataProvider(call as never),
      },
    );
    await waitFor(() => expect(names()).toEqual(['row 1', 'row 2']));
    const count = () => document.querySelector('[data-panel="rows"] [data-count]')?.textContent;
    expect(count()).toBe('Rows 1–2 of 5');
    expect(button('previous-page').disabled).toBe(true);
    await user.click(button('next-page'));
    await waitFor(() => expect(names()).toEqual(['row 3', 'row 4']));
    expect(count()).toBe('Rows 3–4 of 5');
    await user.click(button('next-page'));
    await waitFor(() => expect(names()).toEqual(['row 5']));
    expect(count()).toBe('Rows 5–5 of 5');
    expect(button('next-page').disabled).toBe(true);
    expect(call).toHaveBeenLastCalledWith('POST', '/api/x/list-search', {
      body: { itemsPerPage: 2, page: 2 },
      query: {},
    });
    await user.click(button('previous-page'));
    await waitFor(() => expect(names()).toEqual(['row 3', 'row 4']));
    await user.selectOptions(document.querySelector<HTMLSelectElement>('[data-filter="kind"]')!, 'a');
    await waitFor(() =>
      expect(call).toHaveBeenLastCalledWith('POST', '/api/x/list-search', {
        body: { itemsPerPage: 2, page: 0 },
        query: { kind: 'a' },
      }),
    );
    await waitFor(() => expect(count()).toBe('Rows 1–2 of 5'));
  }, 15_000);
});
