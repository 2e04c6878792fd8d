import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Combobox, Field, Option, Tag, TagGroup, Textarea, makeStyles } from '@fluentui/react-components';
import { AlertRegular } from '@fluentui/react-icons';
import { useApi } from '../../client/react/context.tsx';
import { useAbility } from '../../client/react/ability.tsx';
import { useSearchStaffUsers, useSendNotification } from '../../client/react/hooks.ts';
import { FormDialog } from '../common/FormDialog.tsx';
import { staffUserLabel } from '../form/widgets/StaffUserWidget.tsx';

const useStyles = makeStyles({
  body: { display: 'grid', gap: '12px', minWidth: 'min(80vw, 420px)' },
  tags: { flexWrap: 'wrap', gap: '4px' },
});

/**
 * "Notify colleagues" on a record page: choose staff members by name (the staff directory's
 * search) and write a message; each gets an in-app notification about this record
 * (`POST /api/notifications`). Offered to whoever holds `announce Message`; the server also
 * checks that the sender may read the record and that every recipient is staff.
 */
export function NotifyColleagues({ entity, recordId }: { entity: string; recordId: number }) {
  const { t } = useTranslation();
  const ability = useAbility();
  const [open, setOpen] = useState(false);
  if (!ability.can('announce', 'Message')) return null;
  return (
    <>
      <Button icon={<AlertRegular />} data-action="notify-colleagues" onClick={() => setOpen(true)}>
        {t('notifications.send.button')}
      </Button>
      {open && <NotifyDialog entity={entity} recordId={recordId} onClose={() => setOpen(false)} />}
    </>
  );
}

function NotifyDialog({ entity, recordId, onClose }: { entity: string; recordId: number; onClose(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const { reportError, notifySuccess } = useApi();
  const formId = useId();
  const [typed, setTyped] = useState('');
  // Open while typing: the names arrive after the keystrokes, and the list shows them then.
  const [listOpen, setListOpen] = useState(false);
  const [chosen, setChosen] = useState<Map<number, string>>(new Map());
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState(false);
  const found = useSearchStaffUsers(typed.trim(), typed.trim().length > 0);
  const send = useSendNotification();
  const options = found.data ?? [];

  const submit = () => {
    if (!chosen.size || !message.trim()) return setProblem(true);
    send.mutate(
      { entity, recordId, userIds: [...chosen.keys()], message: message.trim() },
      {
        onSuccess: () => {
          notifySuccess('notifications.send.sent');
          onClose();
        },
        onError: reportError,
      },
    );
  };
  return (
    <FormDialog
      title={t('notifications.send.title')}
      surface={{ 'data-dialog': 'notify-colleagues' }}
      onClose={onClose}
      formId={formId}
      busy={send.isPending}
      cancelLabel={t('notifications.send.cancel')}
      sendLabel={t('notifications.send.submit')}
    >
      <form
        id={formId}
        className={s.body}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Field
          label={t('notifications.send.recipients')}
          validationMessage={problem && !chosen.size ? t('notifications.send.pick') : undefined}
        >
          <Combobox
            multiselect
            freeform
            data-field="recipients"
            placeholder={t('engine.form.searchStaff')}
            value={typed}
            open={listOpen && options.length > 0}
            onOpenChange={(_, d) => setListOpen(d.open)}
            onInput={(e) => {
              setTyped((e.target as HTMLInputElement).value);
              setListOpen(true);
            }}
            selectedOptions={[...chosen.keys()].map(String)}
            onOptionSelect={(_, d) => {
              const next = new Map<number, string>();
              for (const value of d.selectedOptions) {
                const id = Number(value);
                const option = options.find((o) => o.id === id);
                next.set(id, chosen.get(id) ?? (option ? staffUserLabel(option) : `#${id}`));
              }
              setChosen(next);
              setTyped('');
            }}
          >
            {options.map((u) => (
              <Option key={u.id} value={String(u.id)} text={staffUserLabel(u)} data-staff-user={u.id}>
                {staffUserLabel(u)}
              </Option>
            ))}
          </Combobox>
        </Field>
        {chosen.size > 0 && (
          <TagGroup
            className={s.tags}
            onDismiss={(_, d) => {
              const next = new Map(chosen);
              next.delete(Number(d.value));
              setChosen(next);
            }}
          >
            {[...chosen].map(([id, label]) => (
              <Tag
                key={id}
                value={String(id)}
                dismissible
                dismissIcon={{ 'aria-label': t('notifications.send.remove', { name: label }) }}
                data-chosen={id}
              >
                {label}
              </Tag>
            ))}
          </TagGroup>
        )}
        <Field
          label={t('notifications.send.message')}
          required
          validationMessage={problem && !message.trim() ? t('notifications.send.pick') : undefined}
        >
          <Textarea
            data-field="message"
            value={message}
            maxLength={1000}
            resize="vertical"
            onChange={(_, d) => setMessage(d.value)}
          />
        </Field>
      </form>
    </FormDialog>
  );
}
