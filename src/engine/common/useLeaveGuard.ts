import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';
import i18next from 'i18next';

/**
 * Asks before leaving a page with unsaved input (spec §2), by link, back button or closing
 * the tab — but not while saving, and not to the page the save itself goes to.
 */
export function useLeaveGuard(dirty: boolean, saving: boolean): void {
  const active = dirty && !saving;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => active && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(i18next.t('engine.confirm.leave'))) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);
}
