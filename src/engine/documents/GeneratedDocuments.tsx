import { Body1, Link, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { EntityManifest } from '../../generated/meta.ts';
import { useDataProvider } from '../../client/react/hooks.ts';
import { formatDateTime } from '../../shared/format.ts';
import { useDownloadClick } from '../common/useDownload.ts';
import { documentsKey, type GeneratedDocument } from './documents-api.ts';
import { PdfPreviewButton } from './PdfPreview.tsx';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  heading: { margin: 0 },
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  item: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalM,
    rowGap: '2px',
  },
  quiet: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

/**
 * The documents made from the record, newest first: the kind, when, the template version,
 * the DOCX and PDF links and a preview of the PDF. Shown in the record's files tab.
 */
export function GeneratedDocuments({ manifest, id }: { manifest: EntityManifest; id: number }) {
  const s = useStyles();
  const { t } = useTranslation();
  const dp = useDataProvider();
  const onDownload = useDownloadClick();
  const documents = useQuery({
    queryKey: documentsKey(manifest.id, id),
    queryFn: () =>
      dp.callEndpoint<{ list: GeneratedDocument[] }>({ method: 'GET', path: `/api${manifest.base}/documents/${id}` }),
  });
  const list = documents.data?.list ?? [];
  if (!list.length) return null;
  const title = (kind: string) => {
    const key = manifest.documents?.kinds.find((k) => k.kind === kind)?.titleKey;
    return key ? t(key) : kind;
  };
  return (
    <section className={s.root} data-region="generated-documents">
      <Subtitle2 as="h2" className={s.heading}>
        {t('docgen.documents')}
      </Subtitle2>
      <ul className={s.list}>
        {list.map((d) => (
          <li key={d.id} className={s.item} data-document={d.id} data-kind={d.kind}>
            <Body1>{title(d.kind)}</Body1>
            <span className={s.quiet}>
              {formatDateTime(d.createdAt)} · {t('docgen.version', { version: d.templateVersion })}
            </span>
            <Link href={dp.fileUrl(d.docx.id)} download={d.docx.name} onClick={onDownload} data-file={d.docx.id}>
              DOCX
            </Link>
            {d.pdf && (
              <>
                <Link href={dp.fileUrl(d.pdf.id)} download={d.pdf.name} onClick={onDownload} data-file={d.pdf.id}>
                  PDF
                </Link>
                <PdfPreviewButton file={d.pdf} />
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
