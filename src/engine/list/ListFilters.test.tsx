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
import { grid } from './test-entity.ts';
import { splitFilters } from '../../shared/filter-bar.ts';

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

    fireEvent.click(action('more-filters'));
    const district = () => filter('districtId').querySelector('select')!;
    expect(district().disabled).toBe(true);
    fireEvent.change(filter('regionId').querySelector('select')!, { target: { value: '1' } });
    await waitFor(() => expect([...district().options].map((o) => o.textContent)).toEqual(['All', 'Chilanzar']));
    fireEvent.change(district(), { target: { value: '11' } });
    await waitFor(() => expect(lastParams().filters).toMatchObject({ regionId: '1', districtId: '11' }));
    fireEvent.change(filter('regionId').querySelector('select')!, { target: { value: '2' } });
    await waitFor(() => expect(lastParams().filters).toEqual({ statusId: 'DONE', keyword: 'lamp', regionId: '2' }));

    const [from] = filter('createdDate').querySelectorAll('input');
    fireEvent.change(from!, { target: { value: '01.02.2024' } });
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
    fireEvent.click(action('more-filters'));
    fireEvent.click(within(filter('kinds')).getByRole('combobox'));
    // A multi-select dropdown lists its choices as menu item checkboxes.
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Kind A' }));
    await waitFor(() => expect(lastParams().filters).toEqual({ kinds: 'A' }));
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'B' }));
    await waitFor(() => expect(lastParams().filters).toEqual({ kinds: 'A,B' }));
  });

  it('shows the keyword and the primary filters (at most four), the rest behind "More filters (n)"', async () => {
    renderList('/gadgets?priceFrom=5&active=true');
    await waitFor(() => expect(rows()).toHaveLength(20));
    const shown = () => [...document.querySelectorAll('[data-filter]')].map((el) => el.getAttribute('data-filter'));
    expect(shown()).toEqual(['keyword', 'statusId', 'regionId', 'createdDate']);
    // Two of the filters behind the button are in use: the button says so.
    expect(action('more-filters').textContent).toBe('More filters (2)');
    expect(action('more-filters').getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(action('more-filters'));
    expect(shown()).toEqual([
      'keyword',
      'statusId',
      'regionId',
      'createdDate',
      'districtId',
      'price',
      'active',
      'kinds',
    ]);
    expect(splitFilters(grid.filters.map(({ primary: _, ...f }) => f) as never).shown.map((f) => f.name)).toEqual([
      'keyword',
      'statusId',
      'regionId',
      'districtId',
    ]);
  });

  it('shows the filters in use as chips; removing one clears it', async () => {
    renderList('/gadgets?statusId=DONE&regionId=1&priceFrom=5&priceTo=9&createdDateFrom=2025-02-01');
    await waitFor(() => expect(rows()).toHaveLength(20));
    const chip = (name: string) => document.querySelector<HTMLElement>(`[data-chip="${name}"]`);
    await waitFor(() => expect(chip('regionId')?.textContent).toBe('Region: Tashkent'));
    expect(chip('statusId')?.textContent).toBe('Status: Done');
    expect(chip('price')?.textContent).toBe('Price: 5 – 9');
    expect(chip('createdDate')?.textContent).toBe('Created: from 01.02.2025');
    fireEvent.click(chip('price')!);
    await waitFor(() =>
      expect(lastParams().filters).toEqual({ statusId: 'DONE', regionId: '1', createdDateFrom: '2025-02-01' }),
    );
    expect(chip('price')).toBeNull();
  });

  it('takes dates as DD.MM.YYYY and says so, rather than sending, when a range is reversed', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    const [from, to] = filter('createdDate').querySelectorAll('input');
    expect(from!.getAttribute('type')).not.toBe('date');
    fireEvent.change(from!, { target: { value: '10022025' } });
    expect(from!.value).toBe('10.02.2025');
    await waitFor(() => expect(lastParams().filters).toEqual({ createdDateFrom: '2025-02-10' }));
    fireEvent.change(to!, { target: { value: '01.02.2025' } });
    expect(await within(filter('createdDate')).findByRole('alert')).toHaveProperty(
      'textContent',
      'The start date must not be after the end date',
    );
    expect(lastParams().filters).toEqual({ createdDateFrom: '2025-02-10' });
    fireEvent.change(to!, { target: { value: '28.02.2025' } });
    await waitFor(() =>
      expect(lastParams().filters).toEqual({ createdDateFrom: '2025-02-10', createdDateTo: '2025-02-28' }),
    );
    expect(within(filter('createdDate')).queryByRole('alert')).toBeNull();
    fireEvent.change(from!, { target: { value: '31.02.2025' } });
    expect(within(filter('createdDate')).getByRole('alert').textContent).toMatch(/Enter a real date as DD.MM.YYYY/);
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
