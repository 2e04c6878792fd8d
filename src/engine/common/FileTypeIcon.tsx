import type { ReactElement } from 'react';
import {
  DocumentPdfRegular,
  DocumentRegular,
  DocumentTableRegular,
  DocumentTextRegular,
  DocumentWordRegular,
  FolderZipRegular,
  ImageRegular,
  SlideTextRegular,
} from '@fluentui/react-icons';
import type { FileIconKind } from '../form/files.ts';

/** One icon per file kind of spec §9 (images, txt, pdf, pptx, zip, xlsx, doc, docx) and a plain document for the rest. */
export const FILE_ICONS: Readonly<Record<FileIconKind, ReactElement>> = {
  image: <ImageRegular />,
  txt: <DocumentTextRegular />,
  pdf: <DocumentPdfRegular />,
  pptx: <SlideTextRegular />,
  zip: <FolderZipRegular />,
  xlsx: <DocumentTableRegular />,
  doc: <DocumentWordRegular />,
  docx: <DocumentWordRegular />,
  other: <DocumentRegular />,
};

/**
 * The icon of a file kind (see `fileIconKind`), shared by the form's uploader and the
 * messenger's attachments so that a kind looks the same everywhere.
 * @example <FileTypeIcon kind={fileIconKind('act.pdf')} />
 */
export function FileTypeIcon({ kind }: { kind: FileIconKind }): ReactElement {
  return FILE_ICONS[kind];
}
