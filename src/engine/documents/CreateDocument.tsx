import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { DocumentAddRegular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentKind, EntityManifest } from '../../generated/meta.ts';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { canOpen } from '../../shared/ability.ts';
import { useLockedAction } from '../common/useLockedAction.ts';
import { PdfPreview } from './PdfPreview.tsx';
import { documentsKey, type GeneratedDocument } from './documents-api.ts';

/** The kinds of the manifest's `documents` the user may make (the server checks again). */
export function kindsFor(manifest: EntityManifest, may: (permission: string) => boolean): DocumentKind[] {
  return (manifest.documents?.kinds ?? []).filter((k) => !k.permission || may(k.permission));
}

/**
 * "Create document": a menu of the kinds the user may make of this record; the chosen one is
 * made on the server (DOCX + PDF attached to the record), then its PDF opens in the preview.
 * Nothing is shown when the entity declares no documents or the user may make none.
 */
export function CreateDocument({ manifest, id }: { manifest: EntityManifest; id: number }) {
  const { t } = useTranslation();
  const ability = useAbility();
  const dp = useDataProvider();
  const queryClient = useQueryClient();
  const { reportError, notifySuccess } = useApi();
  const [preview, setPreview] = useState<{ id: string; name: string }>();
  const kinds = kindsFor(manifest, (p) => canOpen(ability, p));
  const { run, locked } = useLockedAction(async (kind: DocumentKind) => {
    try {
      const made = await dp.callEndpoint<GeneratedDocument>({
        method: 'POST',
        path: `/api${manifest.base}/documents/${id}/${kind.kind}`,
      });
      notifySuccess('docgen.made');
      // The record's files, documents and history changed.
      await queryClient.invalidateQueries({ queryKey: documentsKey(manifest.id, id) });
      await queryClient.invalidateQueries({ queryKey: ['entity', manifest.id, 'history', id] });
      if (made.pdf) setPreview(made.pdf);
    } catch (error) {
      reportError(error);
    }
  });
  if (!kinds.length) return null;
  return (
    <>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button icon={<DocumentAddRegular />} data-action="create-document" disabled={locked}>
            {locked ? t('docgen.creating') : t('docgen.create')}
          </Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {kinds.map((kind) => (
              <MenuItem key={kind.kind} data-kind={kind.kind} onClick={() => void run(kind)}>
                {t(kind.titleKey)}
              </MenuItem>
            ))}
          </MenuList>
        </MenuPopover>
      </Menu>
      {preview && <PdfPreview file={preview} onClose={() => setPreview(undefined)} />}
    </>
  );
}
