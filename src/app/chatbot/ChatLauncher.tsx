import { makeStyles, tokens } from '@fluentui/react-components';
import { ChatRegular } from '@fluentui/react-icons';
import { Suspense, lazy, useEffect, useState } from 'react';
import { matchPath, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { screens } from '../../definitions/client.ts';
import { ShellButton } from '../../engine/common/primitives.tsx';

// The panel (Fluent's dialog, the conversation) is its own chunk, loaded on the first open.
const loadPanel = () => import('./ChatPanel.tsx');
const ChatPanel = lazy(loadPanel);

const useStyles = makeStyles({
  launcher: {
    position: 'fixed',
    right: '16px',
    bottom: '16px',
    zIndex: 200,
    display: 'inline-flex',
    alignItems: 'center',
    gap: '8px',
    boxShadow: tokens.shadow16,
    '@media (max-width: 480px)': { right: '8px', bottom: '8px' },
  },
  // On a phone the button is its icon only (the name stays for screen readers).
  label: { '@media (max-width: 480px)': { display: 'none' } },
});

/**
 * Screen kinds a visitor fills in and sends (a form, a wizard, a lookup's query, sign-in…): their
 * pages have no launcher, so that nothing floats over the send button on a phone.
 */
const FILLED_IN = new Set(['form', 'wizard', 'flow', 'lookup', 'questionnaire', 'signin']);
/** The public pages that read rather than ask: the routes of screens anyone may open. */
const publicRoutes = screens.filter((s) => s.permission === 'public' && !FILLED_IN.has(s.kind)).map((s) => s.route);
/** The bot exists when the definitions have a chat bot screen. */
const botDefined = screens.some((s) => s.kind === 'chatbot');

/**
 * The chat bot's launcher: a button at the bottom right of every public page that opens the
 * conversation panel. It is drawn only after the page has hydrated (not in the prerendered
 * HTML, so the first paint is the same without it) and the panel loads on the first open.
 */
export function ChatLauncher() {
  const s = useStyles();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [mounted, setMounted] = useState(false);
  const [open, setOpen] = useState(false);
  useEffect(() => setMounted(true), []);
  const onPublicPage = publicRoutes.some((route) => matchPath({ path: route, end: true }, pathname));
  if (!mounted || !botDefined || !onPublicPage) return null;
  return (
    <>
      {!open && (
        <ShellButton
          appearance="primary"
          className={s.launcher}
          data-action="chatbot-open"
          aria-haspopup="dialog"
          aria-label={t('chatbot.launcher')}
          // Start loading the panel as soon as the visitor reaches for the button.
          onPointerEnter={() => void loadPanel()}
          onFocus={() => void loadPanel()}
          onClick={() => setOpen(true)}
        >
          <ChatRegular fontSize={22} aria-hidden="true" />
          <span className={s.label}>{t('chatbot.launcher')}</span>
        </ShellButton>
      )}
      {open && (
        <Suspense fallback={null}>
          <ChatPanel
            onClose={() => {
              setOpen(false);
              // Focus returns to the launcher once it is drawn again.
              requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-action="chatbot-open"]')?.focus());
            }}
          />
        </Suspense>
      )}
    </>
  );
}
