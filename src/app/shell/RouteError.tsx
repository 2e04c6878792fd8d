import { Button, MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** Shown when a route's code could not be loaded (offline, a new deployment, 120 s timeout). */
export function RouteError() {
  const error = useRouteError() as Error | undefined;
  const { t } = useTranslation();
  return (
    <div data-screen="route-error" style={{ padding: 24 }}>
      <MessageBar intent="error">
        <MessageBarBody>
          <MessageBarTitle>{t('app.loadFailed')}</MessageBarTitle>
          {error?.message}
        </MessageBarBody>
      </MessageBar>
      <Button appearance="primary" data-action="retry" style={{ marginTop: 16 }} onClick={() => window.location.reload()}>
        {t('app.retry')}
      </Button>
    </div>
  );
}
