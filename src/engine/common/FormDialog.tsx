import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';

/**
 * A dialog around a form: its title, the form (children), and cancel / send buttons
 * (`data-action="cancel"`, `data-action="send"`). Render it only while it is open: a closed
 * Fluent dialog still wraps the page in focus guards.
 * @example {open && <FormDialog title={t(key)} surface={{ 'data-dialog': 'transition' }} onClose={close} onSend={() => form.current?.submit()} busy={locked} cancelLabel={t('…')} sendLabel={t('…')}>{form}</FormDialog>}
 */
export function FormDialog({
  title,
  surface,
  onClose,
  onSend,
  busy,
  cancelLabel,
  sendLabel,
  children,
}: {
  title: ReactNode;
  /** Attributes of the dialog's surface (stable selectors such as `data-dialog`). */
  surface: Record<`data-${string}`, string | undefined>;
  onClose(): void;
  onSend(): void;
  busy: boolean;
  cancelLabel: string;
  sendLabel: string;
  children: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(_e, d) => !d.open && onClose()}>
      <DialogSurface {...surface}>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>{children}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" data-action="cancel" onClick={onClose}>
              {cancelLabel}
            </Button>
            <Button appearance="primary" data-action="send" disabled={busy} onClick={onSend}>
              {sendLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
