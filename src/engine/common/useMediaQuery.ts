import { useCallback, useSyncExternalStore } from 'react';

const hasMatchMedia = (): boolean => typeof window !== 'undefined' && typeof window.matchMedia === 'function';

/**
 * Whether a media query matches, following changes (e.g. a phone-width layout). A server
 * render (the prerender) and the hydration of its page answer `false` — the page was drawn
 * for a wide screen — and a phone then re-renders with `true`, so React adopts the page
 * instead of discarding it over a mismatch.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!hasMatchMedia()) return () => undefined;
      const mq = window.matchMedia(query);
      mq.addEventListener('change', onChange);
      return () => mq.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => hasMatchMedia() && window.matchMedia(query).matches,
    () => false,
  );
}
