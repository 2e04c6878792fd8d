import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Input,
  Spinner,
  mergeClasses,
} from '@fluentui/react-components';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider, useForwardTargets } from '../../client/react/hooks.ts';
import { nameOf, useStyles, type Message } from './shared.tsx';
import { PhotoAvatar } from './photos.tsx';

/** Where a message goes: a group chat, or a colleague (their direct chat, made on first use). */
export type ForwardTarget =
  | { kind: 'group'; id: number; title: string }
  | { kind: 'person'; id: number; title: string };

/**
 * Forwarding a message (spec §7 "forward"): the sender picks one of their groups or any
 * colleague, searched by name; the server copies the text with `forwardedFrom`.
 */
export function ForwardDialog({
  message,
  onClose,
  onForwarded,
}: {
  message: Message;
  onClose: () => void;
  onForwarded: (to: ForwardTarget) => void;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const dp = useDataProvider();
  const { reportError } = useApi();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<ForwardTarget | undefined>();
  const { groups, people } = useForwardTargets(search);
  const forward = useMutation({
    mutationFn: (to: ForwardTarget) => dp.forwardMessage(message.id, to),
    onSuccess: (_, to) => onForwarded(to),
    onError: reportError,
  });
  const targets: Array<ForwardTarget & { photo: string | null }> = [
    ...(groups.data?.list ?? []).map((g) => ({ kind: 'group' as const, id: g.id, title: g.name, photo: g.photo })),
    ...(people.data?.list ?? []).map((c) => ({
      kind: 'person' as const,
      id: c.employeeId,
      title: nameOf(c),
      photo: c.uploadPath,
    })),
  ];
  return (
    <Dialog
      open
      onOpenChange={(_, d) => {
        if (!d.open) onClose();
      }}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('messenger.forwardTo')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 8 }} data-region="forward">
            <div className={mergeClasses(s.quote, s.ellipsis)}>{message.message}</div>
            <Input
              value={search}
              onChange={(_, d) => setSearch(d.value)}
              placeholder={t('messenger.search')}
              aria-label={t('messenger.search')}
              data-input="forward-search"
            />
            <div style={{ maxHeight: 300, overflowY: 'auto' }}>
              {(groups.isLoading || people.isLoading) && <Spinner size="tiny" />}
              {targets.map((x) => (
                <button
                  key={`${x.kind}-${x.id}`}
                  type="button"
                  className={mergeClasses(s.row, chosen?.kind === x.kind && chosen.id === x.id && s.rowActive)}
                  aria-pressed={chosen?.kind === x.kind && chosen.id === x.id}
                  data-target={`${x.kind}-${x.id}`}
                  onClick={() => setChosen(x)}
                >
                  <PhotoAvatar name={x.title} photo={x.photo} size={28} />
                  <span className={mergeClasses(s.rowText, s.ellipsis)}>{x.title}</span>
                  {x.kind === 'group' && <span className={s.muted}>{t('messenger.group')}</span>}
                </button>
              ))}
              {!groups.isLoading && !people.isLoading && !targets.length && (
                <div className={s.empty}>{t('messenger.nothingFound')}</div>
              )}
            </div>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('messenger.cancel')}</Button>
            <Button
              appearance="primary"
              disabled={!chosen || forward.isPending}
              onClick={() => chosen && forward.mutate(chosen)}
              data-action="forward-send"
            >
              {t('messenger.forward')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
