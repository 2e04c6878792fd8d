import { lazy, Suspense } from 'react';
import { isStaff } from '../../client/session.ts';

// Fluent's Popover, the badge and the live channel are for staff only: a visitor's first
// page (bench:bundle) does not load them.
const StaffCounters = lazy(() => import('./StaffCounters.tsx'));

/** The header's notification counters: nothing for visitors, the counters for staff. */
export function NotificationCounters() {
  if (!isStaff()) return null;
  return (
    <Suspense fallback={null}>
      <StaffCounters />
    </Suspense>
  );
}
