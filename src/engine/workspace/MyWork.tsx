import { Badge, CounterBadge, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { MyWork as MyWorkReply } from '../../client/data-provider.ts';
import { manifests } from '../../definitions/client.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { formatDate, statesKeyOf, statusLabel } from '../../shared/format.ts';
import { entityScreenPath } from '../common/routes.ts';
import { Notice } from '../common/primitives.tsx';

const useStyles = makeStyles({
  group: { display: 'grid', gap: tokens.spacingVerticalXS, marginBottom: tokens.spacingVerticalL },
  groupHead: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    margin: 0,
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
  },
  rows: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '2px' },
  row: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) auto',
    gap: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalM}`,
    alignItems: 'center',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  title: { overflowWrap: 'anywhere', fontWeight: tokens.fontWeightSemibold },
  facts: {
    gridColumn: '1 / -1',
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
  },
  overdue: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
});

/**
 * The staff home's "my work": per entity, its title and how many records wait for the user,
 * then each record — its label linking to its page, its state in the machine's words, its
 * deadline and an overdue mark — and a link to the list when there are more than shown.
 */
export function MyWork({ work }: { work: MyWorkReply }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const ability = useAbility();
  const translate = (key: string) => (i18n.exists(key) ? t(key) : undefined);
  if (!work.groups.length) return <Notice>{t('home.myWork.empty')}</Notice>;
  return (
    <>
      {work.groups.map((group) => {
        const manifest = manifests.get(group.entity);
        if (!manifest) return null;
        const title = t(manifest.titleKey);
        const list = entityScreenPath(group.entity, ['list'], undefined, ability);
        return (
          <section key={group.entity} className={s.group} data-work-entity={group.entity} aria-label={title}>
            <h3 className={s.groupHead}>
              {title}
              <CounterBadge count={group.total} overflowCount={999} color="informative" size="small" />
            </h3>
            <ul className={s.rows}>
              {group.list.map((row) => {
                const detail = entityScreenPath(group.entity, ['detail'], row.id, ability);
                const name = row.label ? row.label : t('home.myWork.record', { id: row.id });
                return (
                  <li key={row.id} className={s.row} data-work-record={row.id} data-status={row.status}>
                    <span className={s.title}>{detail ? <Link to={detail}>{name}</Link> : name}</span>
                    <Badge appearance="tint" color="brand" shape="rounded" data-state-label>
                      {statusLabel(row.status, translate, statesKeyOf(manifest))}
                    </Badge>
                    <span className={s.facts}>
                      <span>{t('home.myWork.record', { id: row.id })}</span>
                      {row.due && <span>{t('home.myWork.due', { date: formatDate(row.due) })}</span>}
                      {row.overdue && (
                        <span className={s.overdue} data-overdue>
                          {t('home.myWork.overdue')}
                        </span>
                      )}
                    </span>
                  </li>
                );
              })}
            </ul>
            {list && group.total > group.list.length && (
              <Link to={list}>{t('home.myWork.more', { count: group.total })}</Link>
            )}
          </section>
        );
      })}
    </>
  );
}
