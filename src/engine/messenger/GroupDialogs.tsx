import { useRef, useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular, DismissRegular, ImageRegular } from '@fluentui/react-icons';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider, useGetContacts, useGetGroupChat, useGetGroupMembers } from '../../client/react/hooks.ts';
import { queryKeys } from '../../client/query-keys.ts';
import { nameOf, type GroupRow } from './shared.tsx';
import { forgetPhoto } from './photos.tsx';

/** A new group: its name and members chosen from the colleagues. */
export function NewGroupDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (g: GroupRow) => void }) {
  const { t } = useTranslation();
  const dp = useDataProvider();
  const { reportError } = useApi();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const contacts = useGetContacts();
  const create = useMutation({
    mutationFn: () => dp.createGroup(name, [...chosen]),
    onSuccess: onCreated,
    onError: reportError,
  });
  const rows: ReactNode[] = (contacts.data?.list ?? []).map((c) => (
    <Checkbox
      key={c.employeeId}
      label={nameOf(c)}
      checked={chosen.has(c.employeeId)}
      data-member={c.employeeId}
      onChange={(_, d) =>
        setChosen((prev) => {
          const next = new Set(prev);
          if (d.checked) next.add(c.employeeId);
          else next.delete(c.employeeId);
          return next;
        })
      }
    />
  ));
  return (
    <Dialog
      open
      onOpenChange={(_, d) => {
        if (!d.open) onClose();
      }}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('messenger.newGroup')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
            {/* A visible label, not a placeholder that goes away as one types. */}
            <Field label={t('messenger.groupName')}>
              <Input value={name} onChange={(_, d) => setName(d.value)} data-input="group-name" />
            </Field>
            <strong>{t('messenger.members')}</strong>
            <div style={{ maxHeight: 280, overflowY: 'auto', display: 'flex', flexDirection: 'column' }}>{rows}</div>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('messenger.cancel')}</Button>
            <Button
              appearance="primary"
              disabled={!name.trim() || create.isPending}
              onClick={() => create.mutate()}
              data-action="create-group"
            >
              {t('messenger.create')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** A group's name, photo and members: everyone sees them; its creator changes them or deletes the group. */
export function GroupSettingsDialog({
  groupChatId,
  me,
  onClose,
  onDeleted,
}: {
  groupChatId: number;
  me: number | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const dp = useDataProvider();
  const { reportError } = useApi();
  const queryClient = useQueryClient();
  const group = useGetGroupChat(groupChatId);
  const members = useGetGroupMembers(groupChatId);
  const contacts = useGetContacts();
  const owner = group.data?.ownerId === me;
  const [name, setName] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.messenger.all() });
  const act = (fn: () => Promise<unknown>) => () => void fn().then(refresh).catch(reportError);
  const inGroup = new Set((members.data?.list ?? []).map((m) => m.employeeId));
  const photoInput = useRef<HTMLInputElement>(null);
  return (
    <Dialog
      open
      onOpenChange={(_, d) => {
        if (!d.open) onClose();
      }}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('messenger.groupSettings')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 8 }} data-region="group-settings">
            <div style={{ display: 'flex', gap: 6, alignItems: 'flex-end' }}>
              <Field label={t('messenger.groupName')} style={{ flexGrow: 1, minWidth: 0 }}>
                <Input
                  value={name ?? group.data?.name ?? ''}
                  disabled={!owner}
                  onChange={(_, d) => setName(d.value)}
                  data-input="group-name"
                />
              </Field>
              {owner && (
                <Button
                  disabled={!name?.trim()}
                  onClick={act(() => dp.renameGroup(groupChatId, name!))}
                  data-action="rename-group"
                >
                  {t('messenger.save')}
                </Button>
              )}
            </div>
            {owner && (
              <>
                <input
                  ref={photoInput}
                  type="file"
                  accept="image/*"
                  hidden
                  onChange={(e) => {
                    const f = e.target.files?.[0];
                    if (!f) return;
                    act(() =>
                      dp
                        .uploadGroupPhoto(groupChatId, f)
                        .then(() => forgetPhoto(`/api/groupChat/photo/${groupChatId}`)),
                    )();
                  }}
                />
                <Button icon={<ImageRegular />} onClick={() => photoInput.current?.click()}>
                  {t('messenger.photo')}
                </Button>
              </>
            )}
            <strong>
              {t('messenger.members')} ({members.data?.list.length ?? 0})
            </strong>
            <div style={{ maxHeight: 240, overflowY: 'auto', display: 'flex', flexDirection: 'column' }}>
              {(members.data?.list ?? []).map((m) => (
                <div
                  key={m.employeeId}
                  style={{ display: 'flex', alignItems: 'center', gap: 6 }}
                  data-member={m.employeeId}
                >
                  <span style={{ flexGrow: 1 }}>{nameOf(m)}</span>
                  {owner && m.employeeId !== me && (
                    <Button
                      size="small"
                      appearance="subtle"
                      icon={<DismissRegular />}
                      aria-label={t('messenger.removeMember')}
                      title={t('messenger.removeMember')}
                      onClick={act(() => dp.removeGroupMembers(groupChatId, [m.employeeId]))}
                    />
                  )}
                </div>
              ))}
              {owner &&
                (contacts.data?.list ?? [])
                  .filter((c) => !inGroup.has(c.employeeId))
                  .map((c) => (
                    <div
                      key={c.employeeId}
                      style={{ display: 'flex', alignItems: 'center', gap: 6 }}
                      data-candidate={c.employeeId}
                    >
                      <span style={{ flexGrow: 1, color: tokens.colorNeutralForeground3 }}>{nameOf(c)}</span>
                      <Button
                        size="small"
                        appearance="subtle"
                        icon={<AddRegular />}
                        aria-label={t('messenger.addMember')}
                        title={t('messenger.addMember')}
                        onClick={act(() => dp.addGroupMembers(groupChatId, [c.employeeId]))}
                      />
                    </div>
                  ))}
            </div>
          </DialogContent>
          <DialogActions>
            {owner && (
              <Button
                icon={<DeleteRegular />}
                data-action="delete-group"
                onClick={() =>
                  void dp
                    .deleteGroup(groupChatId)
                    .then(() => {
                      void refresh();
                      onClose();
                      onDeleted();
                    })
                    .catch(reportError)
                }
              >
                {t('messenger.deleteGroup')}
              </Button>
            )}
            <Button appearance="primary" onClick={onClose}>
              {t('messenger.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
