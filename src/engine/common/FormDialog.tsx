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
 * (`data-action="cancel"`, `data-action="send"`). With `formId` (the `id` of the form inside)
 * the send button is that form's submit button (`type="submit" form=…`), so Enter in a field
 * submits the form as on any web page. Render it only while it is open: a closed Fluent dialog
 * still wraps the page in focus guards.
 * @example {open && <FormDialog title={t(key)} surface={{ 'data-dialog': 'transition' }} onClose={close} formId={id} busy={locked} cancelLabel={t('…')} sendLabel={t('…')}><EntityForm id={id} … /></FormDialog>}
 */
export function FormDialog({
  title,
  surface,
  onClose,
  onSend,
  formId,
  busy,
  cancelLabel,
  sendLabel,
  children,
}: {
  title: ReactNode;
  /** Attributes of the dialog's surface (stable selectors such as `data-dialog`). */
  surface: Record<`data-${string}`, string | undefined>;
  onClose(): void;
  /** Called by the send button when there is no `formId` (the form's own submit handles it otherwise). */
  onSend?(): void;
  /** The `id` of the `<form>` in the dialog: the send button submits it. */
  formId?: string;
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
            <Button
              appearance="primary"
              data-action="send"
              disabled={busy}
              {...(formId ? { type: 'submit' as const, form: formId } : { onClick: onSend })}
            >
              {sendLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
