import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Link,
  makeStyles,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { DocumentPdfRegular } from '@fluentui/react-icons';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOptionalApi } from '../../client/react/context.tsx';
import { useDataProvider } from '../../client/react/hooks.ts';
import { useDownloadClick } from '../common/useDownload.ts';

// pdfjs-dist is large: its chunk is fetched when the first preview opens, never with the page.
const PdfCanvas = lazy(() => import('./PdfCanvas.tsx'));

const useStyles = makeStyles({
  surface: { maxWidth: 'min(920px, 100vw - 16px)', width: '100%', padding: tokens.spacingHorizontalM },
  content: { maxHeight: 'calc(100vh - 180px)', overflowY: 'auto' },
});

/** The PDF file `id` as bytes, fetched with the session's token (a plain URL carries none). */
function usePdfBytes(id: string | undefined): { data?: Uint8Array; failed: boolean } {
  const http = useOptionalApi()?.http;
  const dp = useDataProvider();
  const [state, setState] = useState<{ data?: Uint8Array; failed: boolean }>({ failed: false });
  useEffect(() => {
    if (!id || !http) return;
    let live = true;
    setState({ failed: false });
    http.download(dp.fileUrl(id)).then(
      async (file) => live && setState({ data: new Uint8Array(await file.blob.arrayBuffer()), failed: false }),
      () => live && setState({ failed: true }),
    );
    return () => {
      live = false;
    };
  }, [id, http, dp]);
  return state;
}

/**
 * A dialog showing a PDF record file drawn in the page (pdfjs-dist on canvases, lazily
 * loaded), with a link that downloads it. Closed by `onClose`.
 * @example <PdfPreview file={{ id, name }} onClose={() => setOpen(undefined)} />
 */
export function PdfPreview({ file, onClose }: { file: { id: string; name: string }; onClose(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const dp = useDataProvider();
  const onDownload = useDownloadClick();
  const { data, failed } = usePdfBytes(file.id);
  return (
    <Dialog open onOpenChange={(_e, d) => !d.open && onClose()}>
      <DialogSurface className={s.surface} data-dialog="pdf-preview" aria-label={file.name}>
        <DialogBody>
          <DialogTitle>{file.name}</DialogTitle>
          <DialogContent className={s.content}>
            {failed && <p>{t('docgen.previewFailed')}</p>}
            {!failed && !data && <Spinner size="small" label={t('docgen.loadingPreview')} />}
            {data && (
              <Suspense fallback={<Spinner size="small" label={t('docgen.loadingPreview')} />}>
                <PdfCanvas data={data} />
              </Suspense>
            )}
          </DialogContent>
          <DialogActions>
            <Link href={dp.fileUrl(file.id)} download={file.name} onClick={onDownload} data-action="download-pdf">
              {t('docgen.download')}
            </Link>
            <Button appearance="primary" onClick={onClose} data-action="close-preview">
              {t('docgen.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** A small button that opens the preview of a PDF record file. */
export function PdfPreviewButton({ file }: { file: { id: string; name: string } }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="small"
        appearance="subtle"
        icon={<DocumentPdfRegular />}
        onClick={() => setOpen(true)}
        data-action="preview-pdf"
        aria-label={t('docgen.previewOf', { name: file.name })}
      >
        {t('docgen.preview')}
      </Button>
      {open && <PdfPreview file={file} onClose={() => setOpen(false)} />}
    </>
  );
}
