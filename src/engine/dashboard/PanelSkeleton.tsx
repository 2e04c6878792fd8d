import type { DashboardPanel } from '../../generated/meta.ts';
import { PageSpinner } from '../common/primitives.tsx';
import { useStyles } from './styles.ts';

/**
 * A panel's body while its answer loads: a table's header and its `rows` reserved rows as grey
 * bars of their height (sizes.ts; on a phone, cards), or the spinner in a chart's or tiles' box.
 * One progress bar for assistive technology, named `label`.
 */
export function PanelSkeleton({ kind, label, rows }: { kind: DashboardPanel['kind']; label: string; rows: number }) {
  const s = useStyles();
  if (kind !== 'table') return <PageSpinner label={label} />;
  return (
    <div className={s.skeleton} role="progressbar" aria-label={label} data-skeleton>
      <div className={s.skeletonHeader} aria-hidden="true">
        <div className={s.skeletonBar} />
      </div>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className={s.skeletonRow} aria-hidden="true">
          <div className={s.skeletonBar} />
        </div>
      ))}
    </div>
  );
}
