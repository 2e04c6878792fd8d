import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigation } from 'react-router-dom';
import { tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

/** Finish delay and trickle of spec §9 (start at 25 %, finish ~250 ms after the page is ready). */
export const PROGRESS_FINISH_DELAY_MS = 250;
const START = 0.25;

/** A thin bar at the top that runs on every navigation after the first page. */
export function ProgressBar() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const location = useLocation();
  const [progress, setProgress] = useState<number | null>(null);
  const timers = useRef<number[]>([]);
  // The first page needs no bar: it is on screen already. A state change then would also
  // interrupt React adopting a prerendered page's screen (hydrated in slices after the shell),
  // and React then draws the whole screen again instead (tests/e2e/prerender.e2e.test.ts).
  const first = useRef(true);
  const busy = navigation.state !== 'idle';

  useEffect(() => {
    for (const t of timers.current) window.clearTimeout(t);
    timers.current = [];
    const firstPage = first.current;
    first.current = false;
    if (firstPage && !busy) return;
    if (busy) {
      setProgress(START);
      timers.current.push(window.setTimeout(() => setProgress(0.7), 500));
    } else {
      setProgress((p) => (p === null ? START : p));
      timers.current.push(window.setTimeout(() => setProgress(1), PROGRESS_FINISH_DELAY_MS));
      timers.current.push(window.setTimeout(() => setProgress(null), PROGRESS_FINISH_DELAY_MS + 300));
    }
    return () => {
      for (const t of timers.current) window.clearTimeout(t);
    };
  }, [busy, location.key]);

  if (progress === null) return null;
  return (
    <div
      role="progressbar"
      aria-label={t('engine.loading')}
      aria-valuenow={Math.round(progress * 100)}
      data-progress={progress === 1 ? 'done' : 'running'}
      style={{
        position: 'fixed',
        top: 0,
        left: 0,
        height: 3,
        zIndex: 1000,
        pointerEvents: 'none',
        width: `${progress * 100}%`,
        background: tokens.colorBrandBackground,
        transition: 'width 500ms ease-out',
      }}
    />
  );
}
