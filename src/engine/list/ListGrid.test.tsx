// @vitest-environment happy-dom
/**
 * The list's columns (issue #17): headers wrap instead of being cut and show their full text
 * on hover, and a column is never narrower than its longest header word or, for statuses,
 * its longest badge — so a chip such as "Closed for good" is never clipped.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { MAX_CONTENT_WIDTH, minColumnWidth, textWidth } from './column-widths.ts';
import { record, renderList, rows } from './list-testing.tsx';
import ListGrid from './ListGrid.tsx';
import type { SortItem } from './list-state.ts';
import type { FormatContext } from '../../shared/format.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import { def } from './test-entity.ts';

vi.mock('../../definitions/client.ts', async () => (await import('./test-entity.ts')).definitionsClientMock);

describe('list columns', () => {
  it('wrap long headers, give each its full text as a tooltip, and size the status column to its longest label', async () => {
    renderList();
    await waitFor(() => expect(rows()).toHaveLength(20));
    const headers = [...document.querySelectorAll<HTMLElement>('[role="columnheader"]')];
    expect(headers.length).toBe(9);
    for (const h of headers) {
      const text = h.querySelector('[data-ref="eText"]')?.textContent;
      expect(h.querySelector('[title]')?.getAttribute('title') ?? h.getAttribute('title'), text ?? '').toBe(text);
      expect(h.className).toMatch(/ag-header-cell-wrap-text/);
    }
    const status = document.querySelector<HTMLElement>('[role="columnheader"][col-id="/status"]')!;
    // The longest state label of the machine ("Draft", "Done"); the column fits its badge.
    expect(Number.parseFloat(status.style.width)).toBeGreaterThanOrEqual(
      minColumnWidth({ header: 'Status', texts: ['Draft', 'Done'], badge: true }),
    );
  });

  it('makes a column as wide as its longest header word and badge, and caps plain text', () => {
    const word = textWidth('Идентификационный');
    expect(minColumnWidth({ header: 'Идентификационный номер', texts: [] })).toBeGreaterThan(word);
    const label = 'На рассмотрении у исполнителя';
    expect(minColumnWidth({ header: 'Статус', texts: [label], badge: true })).toBeGreaterThan(textWidth(label) + 20);
    expect(minColumnWidth({ header: 'Имя', texts: ['x'.repeat(400)] })).toBe(MAX_CONTENT_WIDTH);
  });

  it('keeps a header click when a render from before it arrives late (new rows, the old sort)', async () => {
    // The screen learns of a click through the URL, a render or more later; meanwhile a render
    // with new rows still carries the old sort. The grid must keep what the person clicked, so
    // their next click on the same header turns it the other way (the e2e list test lost it).
    const changes: SortItem[][] = [];
    const format: FormatContext = { locale: 'en', translate: () => undefined };
    const grid = (data: ReturnType<typeof record>[], sort: SortItem[]) => (
      <FluentProvider theme={webLightTheme}>
        <ListGrid
          def={def as unknown as EntityDefinition}
          rows={data}
          sort={sort}
          onSortChange={(next) => changes.push(next)}
          format={format}
          statusColor={() => 'brand'}
          title={(key) => key}
        />
      </FluentProvider>
    );
    const byDefault: SortItem[] = [{ field: '/createdAt', desc: true }];
    const view = render(grid([record(1), record(2)], byDefault));
    await waitFor(() => expect(rows()).toHaveLength(2));
    const header = () =>
      document.querySelector<HTMLElement>('[role="columnheader"][col-id="/name"] [data-ref="eLabel"]')!;
    fireEvent.click(header());
    await waitFor(() => expect(changes.at(-1)).toEqual([{ field: '/name', desc: false }]));
    // Late: other rows (wider texts), the sort from before the click (equal, not the same array:
    // it was read from the URL again).
    view.rerender(
      grid(
        [record(3, { name: 'a much longer name than before' }), record(4)],
        byDefault.map((s) => ({ ...s })),
      ),
    );
    await waitFor(() => expect(rows()).toHaveLength(2));
    await waitFor(() => expect(document.querySelector('[row-id="3"]')).toBeTruthy());
    // The person clicks the same header again before the click's own render: the other way.
    fireEvent.click(header());
    await waitFor(() => expect(changes.at(-1)).toEqual([{ field: '/name', desc: true }]));
    // A sort from outside (a link, back, a saved view) is drawn on the headers, and reported to no one.
    const count = changes.length;
    view.rerender(grid([record(4), record(3)], [{ field: '/price', desc: true }]));
    const ariaSort = (field: string) =>
      document.querySelector(`[role="columnheader"][col-id="${field}"]`)?.getAttribute('aria-sort');
    await waitFor(() => expect(ariaSort('/price')).toBe('descending'));
    expect(ariaSort('/name')).toBe('none');
    expect(changes.length).toBe(count);
  });
});
