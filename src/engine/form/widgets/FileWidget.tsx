import { useDownloadClick } from '../../common/useDownload.ts';
import { useRef, useState } from 'react';
import { Button, Link, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { AttachRegular, DismissRegular } from '@fluentui/react-icons';
import type { WidgetProps } from '@rjsf/utils';
import type { UploadedFile } from '../../../client/data-provider.ts';
import { useGetFileInfo } from '../../../client/react/hooks.ts';
import { formContextOf } from '../context.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES, fileIconKind, isAccepted } from '../files.ts';
import { FileTypeIcon } from '../../common/FileTypeIcon.tsx';
import { useFileSize } from '../../common/useFileSize.ts';
import { useTranslator } from '../useTranslator.ts';

const useStyles = makeStyles({
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  item: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  icon: { fontSize: '20px', flexShrink: 0, color: tokens.colorBrandForeground1 },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  size: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, flexShrink: 0 },
  actions: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    marginTop: tokens.spacingVerticalXS,
  },
  problem: {
    color: tokens.colorPaletteRedForeground1,
    fontSize: tokens.fontSizeBase200,
    marginTop: tokens.spacingVerticalXXS,
  },
});

type FileInfo = Pick<UploadedFile, 'id' | 'name' | 'mime' | 'size' | 'removable'>;

const acceptList = (accept: unknown): string[] =>
  Array.isArray(accept)
    ? accept.map(String)
    : typeof accept === 'string'
      ? accept
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean)
      : [];

const positive = (n: unknown): number | undefined => (typeof n === 'number' && n > 0 ? n : undefined);

/**
 * File uploader: chosen files go to `dataProvider.upload(entity, files)` and the field keeps
 * the returned ids. At most `maxItems` files (default 5), each at most 10 MB
 * (`ui:options.maxBytes`), optionally only `ui:options.accept` types; files are listed with
 * an icon by extension and their size. Ids stored earlier are named via `getFileInfo`, or
 * shown as they are when that fails. Read-only: links to download, no buttons. A file someone
 * else attached to the record (file info says it is not `removable` by this user) has no
 * remove button: only its uploader takes it out — unless the field is `ui:options.replaceable`
 * (the entity's edit rules name it in `replaceableFiles`, e.g. a photo).
 */
export function FileWidget(props: WidgetProps) {
  const { id, value, schema, options, registry, readonly, disabled, onChange, onBlur } = props;
  const styles = useStyles();
  const i18n = useTranslator();
  const { entity, recordId, dataProvider } = formContextOf(registry);
  const input = useRef<HTMLInputElement>(null);
  const onDownload = useDownloadClick();
  const [uploaded, setUploaded] = useState<Record<string, FileInfo>>({});
  const [problems, setProblems] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);

  const ids = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const idsRef = useRef(ids);
  idsRef.current = ids;
  const maxFiles = Math.min(positive(schema.maxItems) ?? Infinity, positive(options.maxFiles) ?? Infinity);
  const limit = Number.isFinite(maxFiles) ? maxFiles : DEFAULT_MAX_FILES;
  const maxBytes = positive(options.maxBytes) ?? positive(options.maxFileBytes) ?? DEFAULT_MAX_BYTES;
  const accept = acceptList(options.accept);
  const formatSize = useFileSize();

  const unknownIds = ids.filter((fid) => !uploaded[fid]);
  const info = useGetFileInfo(unknownIds);
  const describe = (fid: string): FileInfo | undefined => uploaded[fid] ?? info.data?.find((f) => f.id === fid);

  const choose = async (list: FileList | null) => {
    const files = Array.from(list ?? []);
    if (input.current) input.current.value = '';
    if (!files.length) return;
    if (idsRef.current.length + files.length > limit) {
      setProblems([i18n.t('errors.tooManyFiles', { limit })]);
      return;
    }
    const refused: string[] = [];
    const accepted = files.filter((f) => {
      if (f.size > maxBytes) refused.push(`${f.name}: ${i18n.t('errors.tooLarge', { limit: formatSize(maxBytes) })}`);
      else if (!isAccepted(f, accept)) refused.push(`${f.name}: ${i18n.t('errors.unsupportedType')}`);
      else return true;
      return false;
    });
    setProblems(refused);
    if (!accepted.length) return;
    setUploading(true);
    try {
      const stored = await dataProvider.upload(entity, accepted, recordId);
      setUploaded((known) => ({ ...known, ...Object.fromEntries(stored.map((f) => [f.id, f])) }));
      onChange([...idsRef.current, ...stored.map((f) => f.id)]);
    } catch {
      setProblems((p) => [...p, i18n.t('engine.form.uploadFailed')]);
    } finally {
      setUploading(false);
    }
  };

  return (
    <div id={id} onBlur={() => onBlur(id, ids)}>
      {ids.length > 0 && (
        <ul className={styles.list}>
          {ids.map((fid) => {
            const file = describe(fid);
            const name = file?.name ?? fid;
            const kind = fileIconKind(name, file?.mime);
            return (
              <li key={fid} className={styles.item} data-file={fid} data-kind={kind}>
                <span className={styles.icon} aria-hidden>
                  <FileTypeIcon kind={kind} />
                </span>
                {readonly ? (
                  <Link className={styles.name} href={dataProvider.fileUrl(fid)} download={name} onClick={onDownload}>
                    {name}
                  </Link>
                ) : (
                  <span className={styles.name}>{name}</span>
                )}
                {file && <span className={styles.size}>{formatSize(file.size)}</span>}
                {!readonly && (uploaded[fid] || options.replaceable === true || file?.removable !== false) && (
                  <Button
                    size="small"
                    appearance="subtle"
                    icon={<DismissRegular />}
                    aria-label={i18n.t('engine.form.removeFile', { name })}
                    title={i18n.t('engine.form.removeFile', { name })}
                    disabled={disabled}
                    onClick={() => onChange(ids.filter((x) => x !== fid))}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
      {readonly && ids.length === 0 && <span className={styles.size}>{i18n.t('errors.noFiles')}</span>}
      {!readonly && (
        <div className={styles.actions}>
          <Button icon={<AttachRegular />} disabled={disabled || uploading} onClick={() => input.current?.click()}>
            {i18n.t('engine.form.chooseFiles')}
          </Button>
          {uploading && <Spinner size="tiny" label={i18n.t('engine.form.uploading')} />}
          <input
            ref={input}
            type="file"
            hidden
            multiple={limit > 1}
            accept={accept.join(',') || undefined}
            data-testid={`${id}-input`}
            onChange={(e) => void choose(e.target.files)}
          />
        </div>
      )}
      {problems.map((p) => (
        <div key={p} role="alert" className={styles.problem}>
          {p}
        </div>
      ))}
    </div>
  );
}
