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
 * A confirmation prompt as a promise (spec §2: save, update, delete, send, accept, reject…).
 * Render `dialog` once; `confirm('delete')` resolves true when the user agrees.
 */
export function useConfirm(): { confirm(action: string): Promise<boolean>; dialog: ReactNode } {
  const { t } = useTranslation();
  const [action, setAction] = useState<string | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const confirm = useCallback(
    (next: string) =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setAction(next);
      }),
    [],
  );
  const close = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setAction(null);
  };
  // Mounted from the first prompt on, not before: a Fluent Dialog, even closed, starts
  // tabster's modalizer, which puts focusable aria-hidden guards around the whole page (an
  // accessibility failure on every form at load). Once shown it stays mounted, so closing
  // keeps Fluent's own animation and clean-up.
  const shown = useRef(false);
  if (action !== null) shown.current = true;
  const dialog = shown.current && (
    <Dialog open={action !== null} onOpenChange={(_e, d) => !d.open && close(false)}>
      <DialogSurface data-dialog="confirm" data-confirm={action ?? undefined}>
        <DialogBody>
          <DialogTitle>{t('engine.confirm.title')}</DialogTitle>
          <DialogContent>{action && t(`engine.confirm.${action}`)}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" data-action="cancel" onClick={() => close(false)}>
              {t('engine.confirm.no')}
            </Button>
            <Button appearance="primary" data-action="confirm" onClick={() => close(true)}>
              {t('engine.confirm.yes')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
  return { confirm, dialog };
}
