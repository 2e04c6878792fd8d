import { makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router-dom';
import type { ScreenProps } from '../types.ts';
import { manifests, screens } from '../../definitions/client.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { useGetCounters, useGetMyWork } from '../../client/react/hooks.ts';
import { getSetting } from '../../client/settings.ts';
import { isStaff } from '../../client/session.ts';
import { recentRecords } from '../../client/recent.ts';
import { landingRoute } from '../../client/landing.ts';
import { canOpen } from '../../shared/ability.ts';
import { Notice, PageSpinner } from '../common/primitives.tsx';
import { forAudience } from '../common/routes.ts';
import { MY_WORK_ANCHOR, useCounterLinks } from '../common/counter-links.ts';
import { MyWork } from './MyWork.tsx';

/** Quick-create links shown at once; the rest behind "more" (an administrator may create ~40 kinds). */
const QUICK_CREATE_SHOWN = 6;

const useStyles = makeStyles({
  root: { display: 'grid', gap: tokens.spacingVerticalL, maxWidth: '1200px' },
  h1: { margin: 0, fontSize: tokens.fontSizeBase600, lineHeight: tokens.lineHeightBase600 },
  columns: {
    display: 'grid',
    gap: tokens.spacingVerticalXL,
    gridTemplateColumns: 'minmax(0, 1fr)',
    '@media (min-width: 900px)': { gridTemplateColumns: 'minmax(0, 2fr) minmax(260px, 1fr)', columnGap: '32px' },
  },
  side: { display: 'grid', gap: tokens.spacingVerticalXL, alignContent: 'start' },
  h2: {
    margin: `0 0 ${tokens.spacingVerticalS}`,
    fontSize: tokens.fontSizeBase500,
    lineHeight: tokens.lineHeightBase500,
  },
  intro: { margin: `0 0 ${tokens.spacingVerticalM}`, color: tokens.colorNeutralForeground3 },
  tiles: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
    gap: tokens.spacingHorizontalS,
    listStyle: 'none',
    margin: 0,
    padding: 0,
  },
  tile: {
    display: 'grid',
    gap: '2px',
    height: '100%',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  count: { fontSize: tokens.fontSizeBase600, fontWeight: tokens.fontWeightSemibold, lineHeight: 1.1 },
  tileLabel: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  links: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  create: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    listStyle: 'none',
    margin: 0,
    padding: 0,
  },
  more: {
    marginTop: tokens.spacingVerticalS,
    '& > summary': { cursor: 'pointer', color: tokens.colorBrandForegroundLink, marginBottom: tokens.spacingVerticalS },
  },
  createLink: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    minHeight: '32px',
    padding: `0 ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
});

/**
 * The staff home (screen kind `workspace`): my work — the records waiting for the user, from
 * the machines (GET /api/my-work) —, my counters as tiles leading to their lists, the record
 * pages opened last on this device, and quick create for each entity whose "new" screen the
 * user's roles open. An outer user is sent to their own starting page.
 */
export default function WorkspaceScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const ability = useAbility();
  const staff = isStaff();
  const work = useGetMyWork({ enabled: staff });
  const counters = useGetCounters({ enabled: staff, refetchInterval: 60_000 });
  const links = useCounterLinks(staff);
  const { hash } = useLocation();
  const recent = useMemo(() => recentRecords(), []);
  const creatable = useMemo(() => quickCreate(ability), [ability]);
  // The bell's "assigned to me" leads to #my-work: scroll there once it is drawn.
  useEffect(() => {
    if (hash === `#${MY_WORK_ANCHOR}` && work.data) document.getElementById(MY_WORK_ANCHOR)?.scrollIntoView();
  }, [hash, work.data]);
  if (!staff) return <Navigate to={landingRoute(true, ability)} replace />;
  const user = getSetting('userInfo');
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.username;

  return (
    <div data-screen={screen.id} className={s.root}>
      <h1 className={s.h1}>{name ? t('home.greeting', { name }) : t(screen.titleKey)}</h1>
      <div className={s.columns}>
        <section
          id={MY_WORK_ANCHOR}
          aria-labelledby="home-my-work"
          data-region="my-work"
          data-loaded={work.data ? 'true' : undefined}
        >
          <h2 id="home-my-work" className={s.h2}>
            {t('home.myWork.title')}
          </h2>
          <p className={s.intro}>{t('home.myWork.intro')}</p>
          {work.data ? (
            <MyWork work={work.data} />
          ) : work.error ? (
            <Notice intent="error">{t('home.myWork.error')}</Notice>
          ) : (
            <PageSpinner />
          )}
        </section>
        <div className={s.side}>
          <section aria-labelledby="home-counters" data-region="my-counters">
            <h2 id="home-counters" className={s.h2}>
              {t('home.counters.title')}
            </h2>
            <ul className={s.tiles}>
              {Object.keys(links).map((key) => {
                const body = (
                  <>
                    <span className={s.count}>{counters.data?.[key] ?? '–'}</span>
                    <span className={s.tileLabel}>{t(`counters.${key}`)}</span>
                  </>
                );
                const to = links[key];
                return (
                  <li key={key} data-counter={key}>
                    {to ? (
                      <Link className={s.tile} to={to}>
                        {body}
                      </Link>
                    ) : (
                      <span className={s.tile}>{body}</span>
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
          <section aria-labelledby="home-recent" data-region="recent">
            <h2 id="home-recent" className={s.h2}>
              {t('home.recent.title')}
            </h2>
            {recent.length ? (
              <ul className={s.links}>
                {recent.map((r) => {
                  const manifest = manifests.get(r.entity);
                  return (
                    <li key={r.path}>
                      <Link to={r.path}>{r.label || t('home.myWork.record', { id: r.id })}</Link>
                      <div className={s.muted}>
                        {manifest ? t(manifest.titleKey) : r.entity} · {t('home.myWork.record', { id: r.id })}
                      </div>
                    </li>
                  );
                })}
              </ul>
            ) : (
              <p className={s.muted}>{t('home.recent.empty')}</p>
            )}
          </section>
          {creatable.length > 0 && (
            <section aria-labelledby="home-create" data-region="quick-create">
              <h2 id="home-create" className={s.h2}>
                {t('home.create.title')}
              </h2>
              <CreateLinks items={creatable.slice(0, QUICK_CREATE_SHOWN)} />
              {creatable.length > QUICK_CREATE_SHOWN && (
                <details className={s.more}>
                  <summary>{t('home.create.more', { count: creatable.length - QUICK_CREATE_SHOWN })}</summary>
                  <CreateLinks items={creatable.slice(QUICK_CREATE_SHOWN)} />
                </details>
              )}
            </section>
          )}
        </div>
      </div>
    </div>
  );
}

/** Quick-create links, one per entity. */
function CreateLinks({ items }: { items: ReturnType<typeof quickCreate> }) {
  const s = useStyles();
  const { t } = useTranslation();
  return (
    <ul className={s.create}>
      {items.map((c) => (
        <li key={c.route}>
          <Link className={s.createLink} to={c.route} data-create={c.entity}>
            <AddRegular aria-hidden /> {t(c.titleKey)}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * The "new" screens the user may open, one per entity (menu order): a form or wizard of the
 * user's audience on a route ending in `/new`, without a partial view.
 */
export function quickCreate(
  ability: ReturnType<typeof useAbility>,
): Array<{ entity: string; route: string; titleKey: string }> {
  const seen = new Set<string>();
  const out: Array<{ entity: string; route: string; titleKey: string }> = [];
  for (const sc of screens) {
    if (!sc.entity || seen.has(sc.entity) || (sc.kind !== 'form' && sc.kind !== 'wizard')) continue;
    if (!sc.route.endsWith('/new') || sc.options?.view || !forAudience(sc, false)) continue;
    if (sc.permission === 'public' || !canOpen(ability, sc.permission, true)) continue;
    const manifest = manifests.get(sc.entity);
    if (!manifest) continue;
    seen.add(sc.entity);
    out.push({ entity: sc.entity, route: sc.route, titleKey: manifest.titleKey });
  }
  return out;
}
