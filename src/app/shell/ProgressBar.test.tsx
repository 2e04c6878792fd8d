// @vitest-environment happy-dom
/**
 * The navigation progress bar (spec §9): nothing on the first page (it is already shown — and
 * a state change then would interrupt React adopting a prerendered page, which then draws the
 * page again); on a navigation it starts at 25 %, and finishes once the next page is ready.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { PROGRESS_FINISH_DELAY_MS, ProgressBar } from './ProgressBar.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const bar = () => document.querySelector<HTMLElement>('[role="progressbar"]');

describe('ProgressBar', () => {
  it('stays hidden on the first page and runs on a navigation until the next page is ready', async () => {
    vi.useFakeTimers();
    let release = (): void => undefined;
    const router = createMemoryRouter([
      {
        element: (
          <>
            <ProgressBar />
            <Outlet />
          </>
        ),
        children: [
          { path: '/', element: <p>first</p> },
          {
            path: '/next',
            loader: () => new Promise<null>((resolve) => (release = () => resolve(null))),
            element: <p>next</p>,
          },
        ],
      },
    ]);
    render(<RouterProvider router={router} />);
    for (let ms = 0; ms <= PROGRESS_FINISH_DELAY_MS + 400; ms += 50) {
      await act(() => vi.advanceTimersByTimeAsync(50));
      expect(bar()).toBeNull();
    }

    await act(async () => void router.navigate('/next'));
    expect(bar()?.getAttribute('aria-valuenow')).toBe('25');
    expect(bar()?.dataset.progress).toBe('running');
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(bar()?.getAttribute('aria-valuenow')).toBe('70');

    await act(async () => release());
    await act(() => vi.advanceTimersByTimeAsync(PROGRESS_FINISH_DELAY_MS));
    expect(bar()?.dataset.progress).toBe('done');
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(bar()).toBeNull();
  });
});
