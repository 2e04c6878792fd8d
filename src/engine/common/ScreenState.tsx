import { Button, MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { describeFailure, HttpError } from '../../client/http.ts';

/** Loading and load-failure states every screen shows the same way. */
export function ScreenState({ screenId, error, onRetry }: { screenId: string; error?: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  if (!error)
    return (
      <div data-screen={screenId} data-state="loading">
        <Spinner label={t('engine.loading')} />
      </div>
    );
  const text = error instanceof HttpError ? describeFailure(error.status, error.body, t) : t('errors.internal');
  return (
    <div data-screen={screenId} data-state="error">
      <MessageBar intent="error">
        <MessageBarBody>{text}</MessageBarBody>
      </MessageBar>
      {onRetry && (
        <Button data-action="retry" style={{ marginTop: 12 }} onClick={onRetry}>
          {t('app.retry')}
        </Button>
      )}
    </div>
  );
}
