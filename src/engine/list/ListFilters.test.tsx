// @vitest-environment happy-dom
/**
 * The list screen's filters against a test double of the DataProvider, over a made-up entity:
 * the list-search parameters each filter kind sends (keyword after a pause, status from the
 * machine, region → district cascade, ranges, "in" choices) and the filter panel on a small
 * screen.
 */
import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FILTER_DEBOUNCE_MS } from './ListFilters.tsx';
import { action, filter, lastParams, location, renderList, rows } from './list-testing.tsx';

vi.mock('../../definitions/client.ts', async () => (await import('./test-entity.ts')).definitionsClientMock);

describe('ListScreen filters', () => {
  it('applies filters: keyword after a pause, status from the machine, region → district cascade, ranges', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    const statusSelect = filter('statusId').querySelector('select')!;
    expect([...statusSelect.options].map((o) => o.value)).toEqual(['', 'DRAFT', 'DONE']);
    // One label per state: the options say what the record page's badge says (the machine's labels).
    expect([...statusSelect.options].slice(1).map((o) => o.text)).toEqual(['Draft', 'Done']);
    fireEvent.change(statusSelect, { target: { value: 'DONE' } });
    await waitFor(() => expect(lastParams().filters).toEqual({ statusId: 'DONE' }));

    const keyword = filter('keyword').querySelector('input')!;
    fireEvent.change(keyword, { target: { value: 'lamp' } });
    expect(lastParams().filters).toEqual({ statusId: 'DONE' });
    await waitFor(() => expect(lastParams().filters).toEqual({ statusId: 'DONE', keyword: 'lamp' }), {
      timeout: FILTER_DEBOUNCE_MS + 1500,
    });

    const district = () => filter('districtId').querySelector('select')!;
    expect(district().disabled).toBe(true);
    fireEvent.change(filter('regionId').querySelector('select')!, { target: { value: '1' } });
    await waitFor(() => expect([...district().options].map((o) => o.textContent)).toEqual(['All', 'Chilanzar']));
    fireEvent.change(district(), { target: { value: '11' } });
    await waitFor(() => expect(lastParams().filters).toMatchObject({ regionId: '1', districtId: '11' }));
    fireEvent.change(filter('regionId').querySelector('select')!, { target: { value: '2' } });
    await waitFor(() => expect(lastParams().filters).toEqual({ statusId: 'DONE', keyword: 'lamp', regionId: '2' }));

    const [from] = filter('createdDate').querySelectorAll('input');
    fireEvent.change(from!, { target: { value: '2024-02-01' } });
    await waitFor(() => expect(lastParams().filters).toMatchObject({ createdDateFrom: '2024-02-01' }));
    fireEvent.click(filter('active').querySelector('input')!);
    await waitFor(() => expect(lastParams().filters).toMatchObject({ active: 'true' }));
    expect(new URLSearchParams(location.split('?')[1]).get('statusId')).toBe('DONE');

    fireEvent.click(action('clear-filters'));
    await waitFor(() => expect(lastParams().filters).toEqual({}));
    expect(location).toBe('/gadgets');
  });

  it('offers enum choices for an "in" filter and sends them comma-separated', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    fireEvent.click(within(filter('kinds')).getByRole('combobox'));
    // A multi-select dropdown lists its choices as menu item checkboxes.
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Kind A' }));
    await waitFor(() => expect(lastParams().filters).toEqual({ kinds: 'A' }));
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'B' }));
    await waitFor(() => expect(lastParams().filters).toEqual({ kinds: 'A,B' }));
  });

  it('moves the filters into a panel on a small screen', async () => {
    const matchMedia = vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query.includes('max-width'),
          media: query,
          onchange: null,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          addListener: () => undefined,
          removeListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    // Without element.animate Fluent's drawer motion takes its test path; happy-dom's own
    // animations reject `finished` on unmount, which nobody awaits.
    const animate = Object.getOwnPropertyDescriptor(Element.prototype, 'animate');
    Object.defineProperty(Element.prototype, 'animate', { value: undefined, configurable: true, writable: true });
    try {
      renderList();
      await waitFor(() => expect(rows()).toHaveLength(20));
      expect(filter('keyword')).toBeNull();
      fireEvent.click(action('filters'));
      await waitFor(() => expect(filter('keyword')).not.toBeNull());
      fireEvent.change(filter('statusId').querySelector('select')!, { target: { value: 'DRAFT' } });
      await waitFor(() => expect(lastParams().filters).toEqual({ statusId: 'DRAFT' }));
      cleanup();
    } finally {
      matchMedia.mockRestore();
      if (animate) Object.defineProperty(Element.prototype, 'animate', animate);
    }
  });
});
