import { Button, Field, makeStyles, Textarea, tokens } from '@fluentui/react-components';
import { AttachRegular, DismissRegular, SendRegular } from '@fluentui/react-icons';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES } from '../form/files.ts';
import { useFileSize } from '../common/useFileSize.ts';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  chosen: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  file: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    minWidth: 0,
    overflowWrap: 'anywhere',
  },
  quiet: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  problems: { color: tokens.colorPaletteRedForeground1, margin: 0, paddingLeft: tokens.spacingHorizontalL },
  hidden: { display: 'none' },
});

/** The file limits of the entity's comments (manifest `comments.files`); absent: no files. */
export interface ComposerFiles {
  maxFiles?: number | undefined;
  maxFileBytes?: number | undefined;
  mimeTypes?: string[] | undefined;
}

/** What the composer sends: the text and the chosen files. */
export interface ComposerInput {
  text: string;
  files: File[];
}

/**
 * Writes a comment (or an answer, or an edit when `initial` is given): a labelled text box
 * (Ctrl+Enter sends), files chosen under the uploader's limits with its messages, and send /
 * cancel buttons. The server's field error (`error`) shows under the text box.
 */
export function CommentComposer({
  label,
  initial = '',
  files: limits,
  maxLength,
  busy,
  error,
  submitLabel,
  onSubmit,
  onCancel,
  autoFocus,
}: {
  label: string;
  initial?: string;
  files?: ComposerFiles | undefined;
  maxLength: number;
  busy: boolean;
  error?: string | undefined;
  submitLabel: string;
  onSubmit(input: ComposerInput): Promise<boolean>;
  onCancel?: (() => void) | undefined;
  autoFocus?: boolean;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const size = useFileSize();
  const [text, setText] = useState(initial);
  const [chosen, setChosen] = useState<File[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const maxFiles = limits?.maxFiles ?? DEFAULT_MAX_FILES;
  const maxBytes = limits?.maxFileBytes ?? DEFAULT_MAX_BYTES;

  const choose = (list: FileList | null) => {
    const next: File[] = [];
    const refused: string[] = [];
    for (const f of Array.from(list ?? [])) {
      if (f.size > maxBytes) refused.push(`${f.name}: ${t('errors.tooLarge', { limit: size(maxBytes) })}`);
      else next.push(f);
    }
    const all = [...chosen, ...next];
    if (all.length > maxFiles) refused.push(t('errors.tooManyFiles', { limit: maxFiles }));
    setChosen(all.slice(0, maxFiles));
    setProblems(refused);
    if (input.current) input.current.value = '';
  };
  const submit = async () => {
    if (busy) return;
    if (await onSubmit({ text, files: chosen })) {
      setText('');
      setChosen([]);
      setProblems([]);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void submit();
    }
    if (e.key === 'Escape' && onCancel) onCancel();
  };

  return (
    <div className={s.root} data-region="comment-composer">
      <Field label={label} validationMessage={error} validationState={error ? 'error' : 'none'}>
        <Textarea
          value={text}
          onChange={(_e, d) => setText(d.value)}
          onKeyDown={onKeyDown}
          resize="vertical"
          rows={3}
          maxLength={maxLength}
          // biome-ignore lint/a11y/noAutofocus: an answer or edit box opens where the user asked for it
          autoFocus={autoFocus}
          data-field="/text"
        />
      </Field>
      {chosen.length > 0 && (
        <ul className={s.chosen} aria-label={t('comments.chosenFiles')}>
          {chosen.map((f, i) => (
            <li key={`${f.name}-${i}`} className={s.file}>
              <span>{f.name}</span>
              <span className={s.quiet}>{size(f.size)}</span>
              <Button
                size="small"
                appearance="subtle"
                icon={<DismissRegular />}
                aria-label={t('comments.removeFile', { name: f.name })}
                onClick={() => setChosen(chosen.filter((_, j) => j !== i))}
              />
            </li>
          ))}
        </ul>
      )}
      {problems.length > 0 && (
        <ul className={s.problems} role="alert">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <div className={s.row}>
        <Button
          appearance="primary"
          icon={<SendRegular />}
          disabled={busy}
          onClick={() => void submit()}
          data-action="comment-send"
        >
          {submitLabel}
        </Button>
        {limits && (
          <>
            <input
              id={inputId}
              ref={input}
              className={s.hidden}
              type="file"
              multiple={maxFiles > 1}
              accept={limits.mimeTypes?.join(',')}
              onChange={(e) => choose(e.currentTarget.files)}
              data-field="/files"
            />
            <Button icon={<AttachRegular />} onClick={() => input.current?.click()} data-action="comment-attach">
              {t('comments.attach')}
            </Button>
            <span className={s.quiet}>{t('comments.limits', { count: maxFiles, size: size(maxBytes) })}</span>
          </>
        )}
        {onCancel && (
          <Button appearance="subtle" onClick={onCancel} data-action="comment-cancel">
            {t('comments.cancel')}
          </Button>
        )}
      </div>
    </div>
  );
}
