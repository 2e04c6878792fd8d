import { useTranslation } from 'react-i18next';
import type { DashboardPanel } from '../../generated/meta.ts';
import type { Drill } from './drill.ts';
import type { Label } from './label.ts';
import { Change, DrillNumber } from './PanelTable.tsx';
import type { Row } from './table-model.ts';
import { useStyles } from './styles.ts';

/**
 * A `stat` panel: one tile per column over the first row — the number big, its title under it,
 * the number a link to its list; with `compare`, the previous period's value and the change.
 * Tiles wrap on a narrow screen.
 */
export function StatTiles({
  panel,
  row,
  previous,
  label,
  drill,
}: {
  panel: DashboardPanel;
  row: Row;
  previous: Row | undefined;
  label: Label;
  drill: Drill;
}) {
  const { t } = useTranslation();
  const s = useStyles();
  const group = Object.fromEntries(drill.groupFields.map((f) => [f, row[f]]));
  return (
    <ul className={s.tiles}>
      {(panel.columns ?? []).map((c) => (
        <li key={c.field} className={s.tile} data-tile={c.field}>
          <span className={s.tileNumber} data-cell={c.field}>
            <DrillNumber href={drill.href(c, group)} text={label(c, row[c.field])} />
          </span>
          <span className={s.tileTitle}>{t(c.titleKey)}</span>
          {panel.compare && <Change column={c} now={row[c.field]} before={previous?.[c.field]} label={label} />}
        </li>
      ))}
    </ul>
  );
}
