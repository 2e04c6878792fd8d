import { fileIconKind } from '../form/files.ts';
import { FileTypeIcon } from '../common/FileTypeIcon.tsx';
import { useFileSize } from '../common/useFileSize.ts';
import { getSetting } from '../../client/settings.ts';
import { useStyles, type Message } from './shared.tsx';

type FileRef = NonNullable<Message['file']>;

/** Downloads an attachment with the bearer token (a plain link would carry none) under its own name. */
async function download(file: FileRef): Promise<void> {
  const res = await fetch(`/api/chat-message/file/${file.id}`, {
    headers: { authorization: `Bearer ${getSetting('accessToken') ?? ''}` },
  });
  if (!res.ok) return;
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: file.name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A message's attachment: the icon of its kind (by extension, else by the type the server
 * detected — spec §9), its name and its size in the reader's units; a click downloads it.
 * `data-file-type` names the kind for testers.
 */
export function Attachment({ file }: { file: FileRef }) {
  const s = useStyles();
  const size = useFileSize();
  const kind = fileIconKind(file.name, file.mime);
  return (
    <button
      type="button"
      className={s.file}
      onClick={() => void download(file)}
      data-file={file.name}
      data-file-type={kind}
    >
      <span className={s.fileIcon} aria-hidden>
        <FileTypeIcon kind={kind} />
      </span>
      <span className={s.ellipsis} data-file-name>
        {file.name}
      </span>
      <span className={s.muted} data-file-size={file.size}>
        {size(file.size)}
      </span>
    </button>
  );
}

/** The file chosen in the composer, before it is sent: icon, name and size. */
export function PendingFile({ file }: { file: File }) {
  const s = useStyles();
  const size = useFileSize();
  const kind = fileIconKind(file.name, file.type);
  return (
    <span data-pending-file={file.name} data-file-type={kind}>
      {' '}
      <span className={s.fileIcon} aria-hidden>
        <FileTypeIcon kind={kind} />
      </span>{' '}
      {file.name} ({size(file.size)})
    </span>
  );
}
