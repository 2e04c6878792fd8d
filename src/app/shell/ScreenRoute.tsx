import { useEffect, useLayoutEffect, type ComponentType } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { signedIn } from '../../client/session.ts';
import { useTranslation } from 'react-i18next';
import type { ScreenDefinition } from '../../generated/meta.ts';
import type { ScreenProps } from '../../engine/types.ts';
import { canOpen } from '../../shared/ability.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { Notice } from '../../engine/common/primitives.tsx';

/**
 * One screen of the definitions on its route: checks the screen's permission, titles the
 * document, and renders the screen kind's component.
 */
export function ScreenRoute({ screen, Kind }: { screen: ScreenDefinition; Kind: ComponentType<ScreenProps> }) {
  const { t } = useTranslation();
  const ability = useAbility();
  const allowed = canOpen(ability, screen.permission, signedIn());
  const location = useLocation();
  // A layout effect: it runs before the screen's own effects, so a record page's name
  // (engine/common/useRecordTitle.ts) is not overwritten by the screen's general title.
  useLayoutEffect(() => {
    document.title = `${t(screen.titleKey)} — ${t('app.shortTitle')}`;
  }, [screen.titleKey, t]);
  // A prerendered page with form fields keeps its screen inert until React owns the screen
  // (scripts/prerender.ts): React hydrates the page's boundary after the shell, so the shell
  // cannot tell when typing starts to count.
  useEffect(() => {
    document.querySelector('[data-region="main"][inert]')?.removeAttribute('inert');
  }, []);
  if (!allowed && !signedIn()) {
    // A protected screen while signed out: sign in first, then come back here.
    return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  if (!allowed) {
    return (
      <div data-screen={screen.id} data-denied="true">
        <Notice intent="warning">{t('errors.forbidden')}</Notice>
      </div>
    );
  }
  return <Kind screen={screen} />;
}
