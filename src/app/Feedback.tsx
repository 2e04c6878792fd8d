/**
 * Toasts and the network dialog: where every failure and success becomes visible (spec §8).
 */
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle,
  Toast, ToastTitle, Toaster, useId, useToastController,
} from '@fluentui/react-components';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { ApiProvider } from './api/context.tsx';
import { createDataProvider } from './api/data-provider.ts';
import { createErrorQueue, createHttpClient, describeFailure, HttpError, NetworkError } from './api/http.ts';
import { clearSession, getSetting } from './settings.ts';

/** Toast timeouts of spec §9. */
export const TOAST_MS = 3000;
export const ERROR_TOAST_MS = 2000;

/** Builds the HTTP client, data provider and error reporting, and shows what they report. */
export function Feedback({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const toasterId = useId('toaster');
  const { dispatchToast } = useToastController(toasterId);
  const [networkError, setNetworkError] = useState(false);

  const show = useCallback((error: unknown) => {
    if (error instanceof NetworkError) {
      setNetworkError(true);
      return;
    }
    if (error instanceof HttpError && error.status === 401) return; // the session is over; logout reloads
    const text = error instanceof HttpError ? describeFailure(error.status, error.body, i18next.t) : i18next.t('errors.internal');
    dispatchToast(
      <Toast data-toast="error"><ToastTitle>{text}</ToastTitle></Toast>,
      { intent: 'error', position: 'bottom-end', timeout: ERROR_TOAST_MS },
    );
  }, [dispatchToast]);

  const value = useMemo(() => {
    const queue = createErrorQueue(show);
    const http = createHttpClient({
      getToken: () => getSetting('accessToken'),
      getLocale: () => i18next.language,
      onUnauthorized: () => {
        clearSession();
        window.location.reload();
      },
      onInFlightChange: (n) => queue.setInFlight(n),
    });
    return {
      dataProvider: createDataProvider(http),
      reportError: (error: unknown) => queue.report(error),
      notifySuccess: (key: string) => dispatchToast(
        <Toast data-toast="success"><ToastTitle>{i18next.t(key)}</ToastTitle></Toast>,
        { intent: 'success', position: 'bottom-end', timeout: TOAST_MS },
      ),
    };
  }, [show, dispatchToast]);

  return (
    <ApiProvider value={value}>
      {children}
      <Toaster toasterId={toasterId} position="bottom-end" />
      <Dialog open={networkError} onOpenChange={(_e, d) => setNetworkError(d.open)}>
        <DialogSurface data-dialog="network-error">
          <DialogBody>
            <DialogTitle>{t('errors.networkTitle')}</DialogTitle>
            <DialogContent>{t('errors.networkText')}</DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={() => setNetworkError(false)}>{t('app.close')}</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </ApiProvider>
  );
}
