// @vitest-environment happy-dom
/**
 * The list's columns (issue #17): headers wrap instead of being cut and show their full text
 * on hover, and a column is never narrower than its longest header word or, for statuses,
 * its longest badge — so a chip such as "Closed for good" is never clipped.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { MAX_CONTENT_WIDTH, minColumnWidth, textWidth } from './column-widths.ts';
import { renderList, rows } from './list-testing.tsx';

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
});
