import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { NavigationRegular, PanelLeftContractRegular, PanelLeftExpandRegular } from '@fluentui/react-icons';
import { Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { NavLink, ScrollRestoration, useLocation, useOutlet } from 'react-router-dom';
import { scrollKey } from './scroll-key.ts';
import { useTranslation } from 'react-i18next';
import { screens } from '../../definitions/client.ts';
import { canOpen } from '../../shared/ability.ts';
import { forAudience } from '../../engine/common/routes.ts';
import { isStaff, signedIn } from '../../client/session.ts';
import { staffHomeRoute } from '../../client/landing.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { getSetting, setSetting } from '../../client/settings.ts';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import { ProgressBar } from './ProgressBar.tsx';
import { ScrollToTop } from './ScrollToTop.tsx';
import { menuIcon } from './icons.tsx';
import { NotificationCounters } from './Counters.tsx';
import { PageSpinner, ShellButton } from '../../engine/common/primitives.tsx';
import { UserMenu } from './UserMenu.tsx';
import { ChatLauncher } from '../chatbot/ChatLauncher.tsx';

const useStyles = makeStyles({
  header: {
    position: 'sticky',
    top: 0,
    zIndex: 100,
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    padding: '8px 12px',
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    minHeight: '48px',
  },
  title: {
    flexGrow: 1,
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase400,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    color: tokens.colorNeutralForegroundOnBrand,
    textDecoration: 'none',
  },
  onBrand: { color: tokens.colorNeutralForegroundOnBrand },
  body: { display: 'flex', minHeight: 'calc(100vh - 48px)' },
  nav: {
    flexShrink: 0,
    width: '248px',
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
    padding: '8px 0',
    overflowY: 'auto',
    position: 'sticky',
    top: '48px',
    height: 'calc(100vh - 48px)',
    '@media (max-width: 767px)': { position: 'fixed', left: 0, zIndex: 90, boxShadow: tokens.shadow16 },
  },
  condensed: { width: '52px' },
  // On a phone the menu is a drawer over the page; the dimmed page behind it closes it.
  backdrop: {
    display: 'none',
    '@media (max-width: 767px)': {
      display: 'block',
      position: 'fixed',
      inset: '48px 0 0 0',
      zIndex: 80,
      backgroundColor: tokens.colorBackgroundOverlay,
    },
  },
  hiddenOnPhone: { '@media (max-width: 767px)': { display: 'none' } },
  section: {
    padding: '12px 16px 4px',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    textTransform: 'uppercase',
  },
  link: {
    display: 'flex',
    alignItems: 'center',
    gap: '10px',
    padding: '8px 16px',
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    ':hover': { backgroundColor: tokens.colorNeutralBackground2Hover },
  },
  active: {
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
    fontWeight: tokens.fontWeightSemibold,
  },
  main: {
    flexGrow: 1,
    minWidth: 0,
    padding: '16px',
    '@media (max-width: 767px)': { padding: '8px' },
    ':focus': { outline: 'none' },
  },
  // Off screen until it has the focus (the first Tab on every page), then over the header.
  skip: {
    position: 'absolute',
    left: '8px',
    top: '-100px',
    zIndex: 1000,
    padding: '8px 16px',
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorBrandForegroundLink,
    fontWeight: tokens.fontWeightSemibold,
    textDecorationLine: 'underline',
    boxShadow: tokens.shadow16,
    ':focus': { top: '4px', outline: `3px solid ${tokens.colorStrokeFocus2}` },
  },
});

const isPhone = () => typeof window !== 'undefined' && window.matchMedia?.('(max-width: 767px)').matches;

/** The page in the document is the build's prerender (scripts/prerender.ts), which React is hydrating now. */
export const hydratingPrerender = (): boolean =>
  typeof document !== 'undefined' && Boolean(document.getElementById('root')?.hasAttribute('data-prerendered'));

/**
 * The shell: header with the language switcher, the sidebar menu from `screens/`, the page.
 * The menu lists every screen with a `menu` the visitor may open — for someone signed out the
 * public services (screens with `permission: "public"`), for staff their screens and then
 * those; on a phone it is a drawer behind the menu button.
 */
export function Layout() {
  const s = useStyles();
  const { t } = useTranslation();
  const ability = useAbility();
  const location = useLocation();
  // The page as the router gives it: the same element while only the shell's own state (the
  // menu) changes, so closing the phone menu after hydration does not render the page again.
  const outlet = useOutlet();
  // Likewise the boundary around it: while React still hydrates a prerendered page inside it,
  // new props (a new element) would make React hydrate the whole page at once, as one long task.
  const page = useMemo(
    () => <Suspense fallback={<PageSpinner label={t('engine.loading')} />}>{outlet}</Suspense>,
    [outlet, t],
  );
  const [condensed, setCondensed] = useState(() => getSetting('menuCondensed'));
  // A prerendered page was drawn with the desktop's open menu (the build cannot know the
  // screen; CSS hides it on a phone): hydration starts from the same state and closes it
  // before the first paint on a phone.
  const [open, setOpen] = useState(() => (hydratingPrerender() || !isPhone()) && getSetting('sidebarOpen'));
  useLayoutEffect(() => {
    if (isPhone()) setOpen(false);
  }, []);
  useEffect(() => setSetting('menuCondensed', condensed), [condensed]);
  // Every navigation closes the phone drawer — also a tap on the entry of the page already open
  // (same path, new key), which would otherwise leave the drawer over the page.
  useEffect(() => {
    if (isPhone()) setOpen(false);
  }, [location.key]);
  const menuButton = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  // The phone drawer: focus moves into it when it opens; Escape closes it and returns focus.
  useEffect(() => {
    if (!open || !isPhone()) return;
    nav.current?.querySelector<HTMLElement>('a[href]')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const sections = useMemo(() => {
    const bySection = new Map<string, (typeof screens)[number][]>();
    for (const screen of screens) {
      if (!screen.menu || !canOpen(ability, screen.permission, signedIn()) || !forAudience(screen)) continue;
      const list = bySection.get(screen.menu.section) ?? [];
      list.push(screen);
      bySection.set(screen.menu.section, list);
    }
    return [...bySection];
  }, [ability]);

  // The menu's entries as one element: the shell's own state (the phone drawer closing after
  // hydration, the condensed toggle's focus…) then re-renders the drawer, not every entry.
  const menuItems = useMemo(
    () =>
      sections.map(([section, items]) => (
        <div key={section} role="group" aria-label={t(section)}>
          {!condensed && (
            <div className={s.section} data-section={section} aria-hidden="true">
              {t(section)}
            </div>
          )}
          {items.map((screen) => {
            const Icon = menuIcon(screen.menu?.icon);
            return (
              <NavLink
                key={screen.id}
                to={screen.route}
                data-menu={screen.id}
                title={condensed ? t(screen.titleKey) : undefined}
                aria-label={condensed ? t(screen.titleKey) : undefined}
                className={({ isActive }) => mergeClasses(s.link, isActive && s.active)}
                end={screen.route === '/'}
              >
                <Icon fontSize={20} />
                {!condensed && <span>{t(screen.titleKey)}</span>}
              </NavLink>
            );
          })}
        </div>
      )),
    [sections, condensed, s, t],
  );

  const toggle = () => {
    setOpen((o) => {
      if (!isPhone()) setSetting('sidebarOpen', !o);
      return !o;
    });
  };

  return (
    <>
      <a
        className={s.skip}
        href="#main"
        data-action="skip-to-main"
        onClick={(e) => {
          // The focus, not only the scroll, moves: the next Tab goes on from the page's content.
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('forms.skipLink')}
      </a>
      <ProgressBar />
      <header className={s.header} data-region="header">
        <ShellButton
          ref={menuButton}
          appearance="subtle"
          aria-label={t('app.menu')}
          aria-expanded={open}
          aria-controls="portal-menu"
          data-action="menu"
          onClick={toggle}
        >
          <NavigationRegular fontSize={22} />
        </ShellButton>
        {/* Staff start from their home; everyone else from the public home. */}
        <NavLink to={(isStaff() && staffHomeRoute()) || '/'} end className={s.title} data-action="home">
          {t('app.shortTitle')}
        </NavLink>
        <div className={s.onBrand}>
          <LanguageSwitcher />
        </div>
        <NotificationCounters />
        <UserMenu />
      </header>
      <div className={s.body}>
        {open && (
          <div className={s.backdrop} data-region="menu-backdrop" aria-hidden="true" onClick={() => setOpen(false)} />
        )}
        {open && (
          <nav
            ref={nav}
            id="portal-menu"
            className={mergeClasses(s.nav, condensed && s.condensed)}
            data-region="menu"
            aria-label={t('app.menu')}
          >
            {menuItems}
            <div className={s.hiddenOnPhone} style={{ padding: '8px' }}>
              <ShellButton
                appearance="subtle"
                data-action="condense"
                title={t(condensed ? 'app.expandMenu' : 'app.condenseMenu')}
                aria-label={t(condensed ? 'app.expandMenu' : 'app.condenseMenu')}
                onClick={() => setCondensed((c) => !c)}
              >
                {condensed ? <PanelLeftExpandRegular fontSize={20} /> : <PanelLeftContractRegular fontSize={20} />}
              </ShellButton>
            </div>
          </nav>
        )}
        <main id="main" tabIndex={-1} className={s.main} data-region="main">
          {page}
        </main>
      </div>
      <ScrollToTop />
      <ChatLauncher />
      <ScrollRestoration getKey={scrollKey} />
    </>
  );
}
