import { useCallback, useEffect, useRef, useState } from 'react';

/** How long save buttons stay locked after a click (spec §9). */
export const SAVE_LOCK_MS = 3000;

/**
 * Wraps an action so a second click within `ms` (or while it runs) does nothing; `locked`
 * disables the button meanwhile.
 */
export function useLockedAction<A extends unknown[]>(
  action: (...args: A) => Promise<unknown> | void,
  ms = SAVE_LOCK_MS,
) {
  const [locked, setLocked] = useState(false);
  const busy = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const run = useCallback(
    async (...args: A) => {
      if (busy.current) return;
      busy.current = true;
      setLocked(true);
      const started = Date.now();
      try {
        await action(...args);
      } finally {
        timer.current = window.setTimeout(
          () => {
            busy.current = false;
            setLocked(false);
          },
          Math.max(0, ms - (Date.now() - started)),
        );
      }
    },
    [action, ms],
  );
  return { run, locked };
}
