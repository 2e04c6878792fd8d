/**
 * The visible half of feedback — Fluent's toaster and the network dialog — loaded on the
 * first message, so a first visit does not pay for them.
 */
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Toast,
  ToastTitle,
  Toaster,
  useId,
  useToastController,
} from '@fluentui/react-components';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** Toast timeouts of spec §9. */
export const TOAST_MS = 3000;
export const ERROR_TOAST_MS = 2000;

export interface FeedbackMessage {
  id: number;
  intent: 'error' | 'success';
  text: string;
}

export default function FeedbackUi({
  messages,
  networkError,
  onCloseNetworkError,
}: {
  messages: FeedbackMessage[];
  networkError: boolean;
  onCloseNetworkError(): void;
}) {
  const { t } = useTranslation();
  const toasterId = useId('toaster');
  const { dispatchToast } = useToastController(toasterId);
  const shown = useRef(0);
  useEffect(() => {
    for (const m of messages) {
      if (m.id <= shown.current) continue;
      shown.current = m.id;
      dispatchToast(
        <Toast data-toast={m.intent}>
          <ToastTitle>{m.text}</ToastTitle>
        </Toast>,
        { intent: m.intent, position: 'bottom-end', timeout: m.intent === 'error' ? ERROR_TOAST_MS : TOAST_MS },
      );
    }
  }, [messages, dispatchToast]);
  return (
    <>
      <Toaster toasterId={toasterId} position="bottom-end" />
      <Dialog open={networkError} onOpenChange={(_e, d) => !d.open && onCloseNetworkError()}>
        <DialogSurface data-dialog="network-error">
          <DialogBody>
            <DialogTitle>{t('errors.networkTitle')}</DialogTitle>
            <DialogContent>{t('errors.networkText')}</DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={onCloseNetworkError}>
                {t('app.close')}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
