// @vitest-environment happy-dom
/**
 * rjsf's Markdown, loaded when first shown (LazyMarkdown.tsx): the text shows as plain words at
 * once, then as markdown once the parser is in — the same markup rjsf's own import gives.
 */
import { render, waitFor } from '@testing-library/react';
import { Markdown as Parsed } from 'markdown-to-jsx/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './LazyMarkdown.tsx';

const TEXT = 'Unsupported field schema for field `root`: *unknown* type.';

describe('LazyMarkdown', () => {
  it('shows the words at once and the parsed markdown once loaded, as markdown-to-jsx renders it', async () => {
    const { container } = render(<Markdown options={{ disableParsingRawHTML: true }}>{TEXT}</Markdown>);
    expect(container.textContent).toBe('Unsupported field schema for field `root`: *unknown* type.');
    await waitFor(() => expect(container.querySelector('code')?.textContent).toBe('root'));
    const direct = render(<Parsed options={{ disableParsingRawHTML: true }}>{TEXT}</Parsed>).container;
    expect(container.innerHTML).toBe(direct.innerHTML);
    expect(container.querySelector('em')?.textContent).toBe('unknown');
  });
});
