// @vitest-environment happy-dom
/**
 * Component tests of the lookup screen (a scripted server under the real provider) and the page
 * screen, rendered from definitions in a data router.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, screen as dom, waitFor, within } from '@testing-library/react';
import type { ScreenDefinition } from '../generated/meta.ts';
import { createFakeDataProvider, createScriptedDataProvider } from './form/testing.tsx';
import { HttpError } from '../client/http.ts';
import LookupScreen from './lookup/LookupScreen.tsx';
import PageScreen from './page/PageScreen.tsx';
import { action, field, input, renderScreen, type Sent } from './screens-testing.tsx';

vi.mock('../definitions/client.ts', async () => (await import('./test-entity.ts')).definitionsClientMock);

describe('lookup screen', () => {
  const lookup = {
    id: 'gadget-lookup',
    route: '/gadget-lookup',
    kind: 'lookup',
    titleKey: 'test.gadget.title',
    permission: 'public',
    options: {
      endpoint: '/api/gadget/lookup',
      method: 'GET',
      emptyKey: 'test.gadget.notFound',
      query: {
        type: 'object',
        required: ['number'],
        properties: { number: { type: 'string', title: 'test.gadget.query', pattern: '^[0-9]+[-/][0-9]+$' } },
      },
      result: [
        { field: '/answer', titleKey: 'test.gadget.answer' },
        { field: '/price', titleKey: 'test.gadget.amount', format: 'money' },
      ],
    },
  } as unknown as ScreenDefinition;

  it('validates the query, calls the endpoint and shows the answer or the empty message', async () => {
    const call = vi.fn(async (_m: string, _p: string, options: Sent) =>
      options.query?.number === '1-2' ? { answer: 'Found it', price: 1234567 } : null,
    );
    const { user } = renderScreen(LookupScreen, lookup, '/gadget-lookup', createScriptedDataProvider(call));
    await waitFor(() => expect(field('/number')).toBeTruthy());
    await user.type(input('/number'), '12');
    await user.click(action('search'));
    await waitFor(() => expect(field('/number').textContent).toContain('Invalid format'));
    expect(call).not.toHaveBeenCalled();
    await user.clear(input('/number'));
    await user.type(input('/number'), '1-2');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() =>
      expect(document.querySelector('[data-result-field="/answer"]')?.textContent).toContain('Found it'),
    );
    expect(call).toHaveBeenCalledWith('GET', '/api/gadget/lookup', { query: { number: '1-2' } });
    expect(document.querySelector('[data-result-field="/price"]')!.textContent).toContain('1 234 567');
    await user.clear(input('/number'));
    await user.type(input('/number'), '3-4');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() =>
      expect(document.querySelector('[data-region="result"]')!.textContent).toContain('Nothing found'),
    );
    // A new search clears the old answer at once: while it runs, and when its query is refused.
    let answer: (value: { answer: string; price: number } | null) => void = () => undefined;
    call.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    await user.clear(input('/number'));
    await user.type(input('/number'), '5-6');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() => expect(call).toHaveBeenCalledTimes(3));
    expect(document.querySelector('[data-region="result"]')!.textContent).toBe('');
    await act(async () => answer({ answer: 'Another', price: 1 }));
    await waitFor(() =>
      expect(document.querySelector('[data-result-field="/answer"]')?.textContent).toContain('Another'),
    );
    await user.clear(input('/number'));
    await user.type(input('/number'), '12');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() => expect(field('/number').textContent).toContain('Invalid format'));
    expect(document.querySelector('[data-region="result"]')!.textContent).toBe('');
    expect(call).toHaveBeenCalledTimes(3);
  }, 20_000);

  it('tabs of query forms; a found or empty answer in a modal; a 400 puts its message on the field', async () => {
    const tabbed = {
      ...lookup,
      options: {
        endpoint: '/api/gadget/check',
        emptyKey: 'test.gadget.notFound',
        emptyModal: true,
        foundKey: 'test.gadget.answer',
        result: [],
        tabs: [
          {
            id: 'a',
            titleKey: 'test.gadget.name',
            query: {
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string', title: 'test.gadget.name' } },
            },
          },
          {
            id: 'b',
            titleKey: 'test.gadget.note',
            query: {
              type: 'object',
              required: ['note'],
              properties: { note: { type: 'string', title: 'test.gadget.note' } },
            },
          },
        ],
      },
    } as unknown as ScreenDefinition;
    const call = vi.fn(async (_m: string, _p: string, { query: params = {} }: Sent) => {
      if (params.note === 'bad')
        throw new HttpError(400, { message: 'Invalid', fieldErrors: { '/note': 'Refused by the server' } }, 'Invalid');
      return { count: params.name === 'yes' ? 1 : 0 };
    });
    const { user } = renderScreen(LookupScreen, tabbed, '/gadget-lookup', createScriptedDataProvider(call));
    await waitFor(() => expect(field('/name')).toBeTruthy());
    await user.type(input('/name'), 'yes');
    await user.click(action('search'));
    // The modal by its stable selectors, as tests/e2e/public.e2e.test.ts finds it in Chromium: in
    // happy-dom, Fluent's focus manager (tabster) may mark the open dialog aria-hidden when focus
    // lands outside it on a loaded machine, which hides it from role queries.
    const dialog = () => document.querySelector<HTMLElement>('[data-dialog="lookup-result"]');
    await waitFor(() => expect(dialog()?.textContent).toContain('Answer'));
    expect(dialog()!.dataset.found).toBe('true');
    await user.click(dialog()!.querySelector<HTMLElement>('[data-action="close"]')!);
    await waitFor(() => expect(dialog()).toBeNull());
    await user.click(document.querySelector<HTMLElement>('[data-tab="b"]')!);
    await waitFor(() => expect(field('/note')).toBeTruthy());
    expect(document.querySelector('[data-field="/name"]')).toBeNull();
    await user.type(input('/note'), 'bad');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() => expect(field('/note').textContent).toContain('Refused by the server'));
    expect(call).toHaveBeenLastCalledWith('GET', '/api/gadget/check', { query: { note: 'bad' } });
    await user.clear(input('/note'));
    await user.type(input('/note'), 'fine');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() => expect(dialog()?.textContent).toContain('Nothing found'));
    expect(dialog()!.dataset.found).toBe('false');
  }, 15_000);
});

describe('lookup tabs that replace options', () => {
  it('opens on initialTab; a tab may bring its own endpoint, method, query sending and result fields', async () => {
    const screen = {
      id: 'gadget-lookup',
      route: '/gadget-lookup',
      kind: 'lookup',
      titleKey: 'test.gadget.title',
      permission: 'public',
      options: {
        endpoint: '/api/gadget/lookup',
        method: 'GET',
        emptyKey: 'test.gadget.notFound',
        initialTab: 'code',
        query: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', title: 'test.gadget.name' } },
        },
        result: [{ field: '/answer', titleKey: 'test.gadget.answer' }],
        tabs: [
          { id: 'name', titleKey: 'test.gadget.name' },
          {
            id: 'code',
            titleKey: 'test.gadget.note',
            endpoint: '/api/gadget/list-search',
            method: 'POST',
            send: 'query',
            query: {
              type: 'object',
              required: ['note'],
              properties: { note: { type: 'string', title: 'test.gadget.note' } },
            },
            result: [{ field: '/price', titleKey: 'test.gadget.amount', format: 'money' }],
          },
        ],
      },
    } as unknown as ScreenDefinition;
    const call = vi.fn(async (_m: string, path: string) =>
      path.endsWith('list-search') ? { list: [{ price: 5000 }] } : { answer: 'By name' },
    );
    const { user } = renderScreen(LookupScreen, screen, '/gadget-lookup', createScriptedDataProvider(call));
    await waitFor(() => expect(field('/note')).toBeTruthy());
    expect(document.querySelector('[data-field="/name"]')).toBeNull();
    await user.type(input('/note'), 'x1');
    await user.click(action('search'));
    await waitFor(() => expect(document.querySelector('[data-result-field="/price"]')?.textContent).toContain('5 000'));
    // send: "query" — the POST's body is empty and the query goes in the query string.
    expect(call).toHaveBeenLastCalledWith('POST', '/api/gadget/list-search', { body: {}, query: { note: 'x1' } });
    expect(document.querySelector('[data-result-field="/answer"]')).toBeNull();
    await user.click(document.querySelector<HTMLElement>('[data-tab="name"]')!);
    await waitFor(() => expect(field('/name')).toBeTruthy());
    expect(document.querySelector('[data-region="result"]')!.textContent).toBe('');
    await user.type(input('/name'), 'lamp');
    await new Promise((r) => setTimeout(r, 1100));
    await user.click(action('search'));
    await waitFor(() =>
      expect(document.querySelector('[data-result-field="/answer"]')?.textContent).toContain('By name'),
    );
    expect(call).toHaveBeenLastCalledWith('GET', '/api/gadget/lookup', { query: { name: 'lamp' } });
  }, 15_000);
});

describe('lookup over a public lookup with a date range', () => {
  it('says on the field that the end is before the start, and asks nothing', async () => {
    const period = {
      id: 'gadget-period',
      route: '/gadget-period',
      kind: 'lookup',
      entity: 'gadget',
      titleKey: 'test.gadget.title',
      permission: 'public',
      options: {
        endpoint: '/api/public-lookup/gadget/period',
        emptyKey: 'test.gadget.notFound',
        query: {
          type: 'object',
          required: ['from', 'to'],
          properties: {
            from: { type: 'string', format: 'date', title: 'test.gadget.query' },
            to: { type: 'string', format: 'date', title: 'test.gadget.answer' },
          },
        },
        result: [{ field: '/answer', titleKey: 'test.gadget.answer' }],
      },
    } as unknown as ScreenDefinition;
    const call = vi.fn(async () => ({ list: [] }));
    const { user } = renderScreen(LookupScreen, period, '/gadget-period', createScriptedDataProvider(call));
    await waitFor(() => expect(field('/from')).toBeTruthy());
    await user.type(input('/from'), '31122026');
    await user.type(input('/to'), '01112026');
    await user.click(action('search'));
    await waitFor(() => expect(field('/to').textContent).toContain('The end date must not be before the start date'));
    expect(call).not.toHaveBeenCalled();
    expect(document.querySelector('[data-region="result"]')!.textContent).toBe('');
  }, 15_000);
});

describe('page screen', () => {
  it('renders the title and paragraphs of its content key', async () => {
    const page = {
      id: 'about',
      route: '/about',
      kind: 'page',
      titleKey: 'test.gadget.title',
      permission: 'public',
      options: { contentKey: 'test.gadget.page' },
    } as unknown as ScreenDefinition;
    renderScreen(PageScreen, page, '/about', createFakeDataProvider());
    await waitFor(() => expect(dom.getByRole('heading', { level: 1 }).textContent).toBe('About gadgets'));
    expect([...document.querySelectorAll('[data-paragraph]')].map((p) => p.textContent)).toEqual([
      'First paragraph.',
      'Second paragraph.',
    ]);
    // A key named heading… is a section heading between the paragraphs, not a paragraph.
    expect(dom.getByRole('heading', { level: 2 }).textContent).toBe('More');
    expect(document.querySelector('[data-heading="headingMore"]')?.previousElementSibling?.textContent).toBe(
      'First paragraph.',
    );
    await act(async () => undefined);
  });
});
