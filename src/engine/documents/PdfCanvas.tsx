import { makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

const useStyles = makeStyles({
  pages: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, width: '100%' },
  page: {
    width: '100%',
    height: 'auto',
    boxShadow: tokens.shadow4,
    backgroundColor: '#ffffff',
  },
});

/** The most pages drawn: a preview, not a reader (the download has them all). */
const MAX_PAGES = 20;

/**
 * A PDF drawn page by page on canvases as wide as the dialog (a phone's 360 px too), with
 * pdfjs-dist. This module is its own chunk (PdfPreview loads it lazily): pdfjs and its worker
 * are fetched only when a preview opens.
 */
export default function PdfCanvas({ data }: { data: Uint8Array }) {
  const s = useStyles();
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => Promise<void>) | undefined;
    (async () => {
      const pdfjs = await import('pdfjs-dist');
      pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
      // pdfjs takes the buffer over (transfers it to the worker): it gets a copy.
      const task = pdfjs.getDocument({ data: data.slice(), isEvalSupported: false });
      destroy = () => task.destroy();
      const doc = await task.promise;
      const holder = box.current;
      if (cancelled || !holder) return;
      holder.replaceChildren();
      const width = Math.max(240, holder.clientWidth);
      for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES); n++) {
        const page = await doc.getPage(n);
        if (cancelled) return;
        const base = page.getViewport({ scale: 1 });
        // Sharp on high-density screens: the canvas has device pixels, CSS scales it to the width.
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: (width / base.width) * ratio });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.className = s.page;
        canvas.dataset.page = String(n);
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', t('docgen.pageOf', { page: n, pages: doc.numPages }));
        holder.append(canvas);
        await page.render({ canvas, viewport }).promise;
      }
      if (!cancelled) setState('ready');
    })().catch(() => {
      if (!cancelled) setState('failed');
    });
    return () => {
      cancelled = true;
      void destroy?.();
    };
  }, [data, s.page, t]);

  return (
    <div data-region="pdf-preview" data-state={state}>
      {state === 'loading' && <Spinner size="small" label={t('docgen.loadingPreview')} />}
      {state === 'failed' && <p>{t('docgen.previewFailed')}</p>}
      <div ref={box} className={s.pages} />
    </div>
  );
}
