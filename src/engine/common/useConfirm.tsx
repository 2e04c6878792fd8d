import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A prompt that names what will happen: its title (the question), the consequence, and the
 * label of the confirm button (the action itself, never a bare "Yes").
 */
export interface ConfirmRequest {
  /** `data-confirm` of the prompt (a stable selector). */
  key: string;
  title: string;
  message: string;
  confirmLabel: string;
}

/**
 * A confirmation prompt as a promise (spec §2: save, update, delete, send, accept, reject…).
 * Render `dialog` once; `confirm('delete')` (the texts of `engine.confirm.<action>`, the button
 * `forms.confirm.<action>`) or `confirm({key, title, message, confirmLabel})` resolves true when
 * the user agrees.
 */
export function useConfirm(): { confirm(action: string | ConfirmRequest): Promise<boolean>; dialog: ReactNode } {
  const { t, i18n } = useTranslation();
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const confirm = useCallback(
    (next: string | ConfirmRequest) =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setRequest(
          typeof next === 'string'
            ? {
                key: next,
                title: t('engine.confirm.title'),
                message: t(`engine.confirm.${next}`),
                // The button says the action where the texts have a word for it.
                confirmLabel: i18n.exists(`forms.confirm.${next}`)
                  ? t(`forms.confirm.${next}`)
                  : t('engine.confirm.yes'),
              }
            : next,
        );
      }),
    [t, i18n],
  );
  const close = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setRequest(null);
  };
  // Mounted from the first prompt on, not before: a Fluent Dialog, even closed, starts
  // tabster's modalizer, which puts focusable aria-hidden guards around the whole page (an
  // accessibility failure on every form at load). Once shown it stays mounted, so closing
  // keeps Fluent's own animation and clean-up; the last texts stay while it fades out.
  const shown = useRef<ConfirmRequest | null>(null);
  if (request !== null) shown.current = request;
  const texts = request ?? shown.current;
  const dialog = texts && (
    <Dialog open={request !== null} onOpenChange={(_e, d) => !d.open && close(false)}>
      <DialogSurface data-dialog="confirm" data-confirm={request?.key}>
        <DialogBody>
          <DialogTitle>{texts.title}</DialogTitle>
          <DialogContent data-region="confirm-message">{texts.message}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" data-action="cancel" onClick={() => close(false)}>
              {t('forms.cancel')}
            </Button>
            <Button appearance="primary" data-action="confirm" onClick={() => close(true)}>
              {texts.confirmLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
  return { confirm, dialog };
}
