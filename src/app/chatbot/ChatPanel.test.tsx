// @vitest-environment happy-dom
/**
 * The chat panel across several questions in a browser whose `scrollIntoView` returns a
 * promise (Chromium 140+ does; jsdom and happy-dom return undefined): the panel scrolls to the
 * newest reply after each question and keeps rendering — an effect that handed that promise
 * back to React as its cleanup made the next render throw ("l is not a function").
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { createFakeDataProvider, renderWithProviders } from '../../engine/form/testing.tsx';
import ChatPanel from './ChatPanel.tsx';

configure({ asyncUtilTimeout: 20_000 });

afterEach(() => vi.restoreAllMocks());

describe('the chat panel', () => {
  it('answers one question after another when scrollIntoView returns a promise', async () => {
    const scrolled = vi
      .spyOn(Element.prototype, 'scrollIntoView')
      .mockImplementation(() => Promise.resolve() as unknown as void);
    const callEndpoint = vi.fn(async ({ body }: { body?: unknown }) => {
      const { question } = body as { question: string };
      return question.startsWith('gas')
        ? {
            matched: true,
            answers: [{ id: 'faq:q4', title: 'Gas prepayment', text: 'How much.', link: '/faq#faq-q4' }],
          }
        : { matched: false, answers: [], appealLink: `/murojaat?content=${encodeURIComponent(question)}` };
    });
    const { user } = renderWithProviders(
      <MemoryRouter>
        <ChatPanel onClose={() => {}} />
      </MemoryRouter>,
      { dataProvider: createFakeDataProvider({ callEndpoint } as never) },
    );
    const box = () => document.querySelector<HTMLInputElement>('[data-field="chatbot-question"]')!;
    await waitFor(() => expect(box()).not.toBeNull());
    await user.type(box(), 'gas price{Enter}');
    await waitFor(() => expect(document.querySelector('[data-turn="0"] [data-answer="faq:q4"]')).not.toBeNull());
    await user.type(box(), 'nonsense{Enter}');
    await waitFor(() => expect(document.querySelector('[data-turn="1"] [data-state="no-answer"]')).not.toBeNull());
    expect(document.querySelector('[data-action="chatbot-send-appeal"]')?.getAttribute('href')).toBe(
      '/murojaat?content=nonsense',
    );
    expect(scrolled.mock.calls.length).toBeGreaterThanOrEqual(3);
  });
});
