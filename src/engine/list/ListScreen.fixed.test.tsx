// @vitest-environment happy-dom
/**
 * A list screen that is one slice of the records (`options.fixedFilters`, e.g. the pharmacy
 * desk's "finished" list): the fixed filters go with every search and the export, are not offered
 * in the filter bar, the user's own filters narrow them, and the header shows the slice's count.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { screens } from './test-entity.ts';
import { action, exportUrl, filter, lastParams, location, renderList, rows } from './list-testing.tsx';

vi.mock('../../definitions/client.ts', async () => (await import('./test-entity.ts')).definitionsClientMock);

const slice = { ...screens[0], options: { fixedFilters: { kinds: 'A,B' } } };

describe('ListScreen with fixedFilters', () => {
  it('sends the fixed filters with every search and export, hides them, and counts the slice', async () => {
    renderList('/gadgets?statusId=DONE', slice);
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    expect(lastParams().filters).toEqual({ statusId: 'DONE', kinds: 'A,B' });
    expect(exportUrl).toHaveBeenLastCalledWith(
      'gadget',
      expect.objectContaining({ filters: expect.objectContaining({ kinds: 'A,B' }) }),
    );
    fireEvent.click(action('more-filters'));
    expect(filter('kinds')).toBeNull();
    expect(filter('price')).not.toBeNull();
    const count = document.querySelector('[data-state="count"]');
    expect(count?.textContent).toBe('45');
    expect(screen.getByLabelText('45 records')).toBeTruthy();
  });

  it("creates a record of the slice: the fixed equality filters on fields become the new form's values", async () => {
    // A region's list; `kinds` is an `in` filter and stays out of the new record.
    renderList('/gadgets', { ...screens[0], options: { fixedFilters: { regionId: 3, kinds: 'A,B' } } });
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    fireEvent.click(action('create'));
    await waitFor(() => expect(location).toBe('/gadgets/new?regionId=3'));
  });

  it('a plain list shows no count badge and sends only the user’s filters', async () => {
    renderList('/gadgets?statusId=DONE');
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    expect(lastParams().filters).toEqual({ statusId: 'DONE' });
    expect(document.querySelector('[data-state="count"]')).toBeNull();
  });
});
