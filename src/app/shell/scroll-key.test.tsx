// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, ScrollRestoration } from 'react-router-dom';
import { scrollKey } from './scroll-key.ts';

/** The positions another fresh page of this tab left in sessionStorage (React Router's own store). */
const STORE = 'react-router-scroll-positions';

async function openFresh(getKey?: typeof scrollKey) {
  const scrolls: Array<[number, number]> = [];
  vi.spyOn(window, 'scrollTo').mockImplementation(((x: number, y: number) => scrolls.push([x, y])) as never);
  const router = createMemoryRouter([
    { path: '/', element: <ScrollRestoration {...(getKey ? { getKey } : {})} /> },
    { path: '/next', element: <ScrollRestoration {...(getKey ? { getKey } : {})} /> },
  ]);
  await act(async () => {
    render(<RouterProvider router={router} />);
  });
  return { scrolls, router };
}

describe('scroll positions of a page opened afresh', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  it('are not taken from another fresh page of the tab (React Router files them all under "default")', async () => {
    sessionStorage.setItem(STORE, JSON.stringify({ default: 500 }));
    // What React Router does by itself: the other page's 500.
    expect((await openFresh()).scrolls).toContainEqual([0, 500]);
    cleanup();
    const { scrolls } = await openFresh(scrollKey);
    expect(scrolls).not.toContainEqual([0, 500]);
  });

  it('come back when the person returns to the first page within the same load', async () => {
    const { scrolls, router } = await openFresh(scrollKey);
    Object.defineProperty(window, 'scrollY', { value: 320, configurable: true });
    await act(() => router.navigate('/next'));
    await act(() => router.navigate(-1));
    expect(scrolls.at(-1)).toEqual([0, 320]);
    expect(scrollKey({ key: 'abc' })).toBe('abc');
    expect(scrollKey({ key: 'default' })).toBe(scrollKey({ key: 'default' }));
    expect(scrollKey({ key: 'default' })).not.toBe('default');
  });
});
