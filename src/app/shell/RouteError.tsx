import { useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Notice, ShellButton } from '../../engine/common/primitives.tsx';

/** Shown when a route's code could not be loaded (offline, a new deployment, 120 s timeout). */
export function RouteError() {
  const error = useRouteError() as Error | undefined;
  const { t } = useTranslation();
  return (
    <div data-screen="route-error" style={{ padding: 24 }}>
      <Notice intent="error">
        <strong>{t('app.loadFailed')}</strong> {error?.message}
      </Notice>
      <ShellButton
        appearance="primary"
        data-action="retry"
        style={{ marginTop: 16 }}
        onClick={() => window.location.reload()}
      >
        {t('app.retry')}
      </ShellButton>
    </div>
  );
}
