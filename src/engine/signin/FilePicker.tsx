import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { DocumentRegular } from '@fluentui/react-icons';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: tokens.colorNeutralForeground2 },
});

/**
 * Picks one local file with a translated button and the chosen name beside it (the native
 * file input speaks the browser's language, not the portal's). The input stays in the page,
 * hidden, carrying `data-field` for testers.
 */
export function FilePicker({
  field,
  accept,
  label,
  file,
  onFile,
}: {
  field: string;
  accept: string;
  label: string;
  file: File | null;
  onFile(file: File | null): void;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className={s.row}>
      <input
        ref={input}
        type="file"
        hidden
        data-field={field}
        accept={accept}
        aria-label={label}
        onChange={(e) => onFile(e.target.files?.[0] ?? null)}
      />
      <Button
        icon={<DocumentRegular />}
        aria-label={label}
        data-action={`choose${field.replace('/', '-')}`}
        onClick={() => input.current?.click()}
      >
        {t('auth.chooseFile')}
      </Button>
      <span className={s.name} data-file-name={file?.name ?? ''}>
        {file?.name ?? t('auth.noFileChosen')}
      </span>
    </div>
  );
}
