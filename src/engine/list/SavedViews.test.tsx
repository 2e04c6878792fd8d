// @vitest-environment happy-dom
/**
 * Saved views on the list screen (issue #17): "Save current view as…" keeps the filters, sort
 * and columns under a name and puts the view in the URL; picking a view brings its filters and
 * sort back; deleting the view in force leaves the list as it is, without the view. A visitor
 * (not signed in) has no Views menu.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { setSetting } from '../../client/settings.ts';
import { action, lastParams, location, renderList, rows, saveView, views } from './list-testing.tsx';
import { layoutFromColumnState } from './ListGrid.tsx';

vi.mock('../../definitions/client.ts', async () => (await import('./test-entity.ts')).definitionsClientMock);

const params = () => new URLSearchParams(location.split('?')[1]);

// Without element.animate Fluent's popover motion takes its test path; happy-dom's own
// animations reject `finished` on unmount, which nobody awaits.
const animate = Object.getOwnPropertyDescriptor(Element.prototype, 'animate');
beforeAll(() =>
  Object.defineProperty(Element.prototype, 'animate', { value: undefined, configurable: true, writable: true }),
);
afterAll(() => {
  if (animate) Object.defineProperty(Element.prototype, 'animate', animate);
});

describe('saved views', () => {
  it('saves the list as arranged under a name, picks a view back and deletes it', async () => {
    setSetting('accessToken', 'token');
    renderList('/gadgets?statusId=DONE&sort=name');
    await waitFor(() => expect(rows()).toHaveLength(20));
    fireEvent.click(action('views'));
    expect(await screen.findByText('No saved views yet')).toBeTruthy();
    fireEvent.click(action('save-view'));
    fireEvent.click(action('save-view-confirm'));
    expect(await screen.findByText('Enter a name for the view')).toBeTruthy();
    fireEvent.change(document.querySelector('[data-input="view-name"]')!, { target: { value: 'Done by name' } });
    fireEvent.click(action('save-view-confirm'));
    await waitFor(() => expect(saveView).toHaveBeenCalled());
    expect(saveView.mock.lastCall).toEqual([
      'gadget-list',
      'Done by name',
      {
        filters: { statusId: 'DONE' },
        sort: [{ field: '/name', desc: false }],
        columns: expect.arrayContaining([{ field: '/id' }, { field: '/status' }]),
      },
    ]);
    await waitFor(() => expect(params().get('view')).toBe('1'));
    await waitFor(() => expect(action('views').textContent).toBe('Views: Done by name'));

    // Another arrangement, then the view back.
    fireEvent.click(action('clear-filters'));
    await waitFor(() => expect(lastParams().filters).toEqual({}));
    fireEvent.click(action('views'));
    fireEvent.click(await screen.findByRole('button', { name: 'Done by name' }));
    await waitFor(() => expect(lastParams()).toMatchObject({ filters: { statusId: 'DONE' }, sortBy: ['name'] }));

    fireEvent.click(action('views'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the view “Done by name”' }));
    await waitFor(() => expect(views).toEqual([]));
    await waitFor(() => expect(params().get('view')).toBeNull());
    expect(params().get('statusId')).toBe('DONE');
  });

  it('shows no Views menu to a visitor', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(action('views')).toBeNull();
  });

  it('keeps the widths only of columns sized by hand', () => {
    expect(
      layoutFromColumnState([
        { colId: '/name', width: 212.4, flex: null },
        { colId: '/price', width: 150, flex: 1 },
        { colId: '/id', hide: true, width: 100, flex: 1 },
        { colId: 'ag-Grid-SelectionColumn', width: 50 },
      ]),
    ).toEqual([{ field: '/name', width: 212 }, { field: '/price' }, { field: '/id', hidden: true }]);
  });
});
