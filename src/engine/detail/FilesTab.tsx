import { Body1, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { valueAt } from '../../shared/pointer.ts';
import type { ReadField } from './read-view.ts';
import { FileLinks } from './ReadValue.tsx';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  group: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  heading: { margin: 0 },
});

/**
 * All the record's files in one place, by the field that holds them (a field without files
 * is left out), each a download link with its size; a plain sentence when there are none.
 */
export function FilesTab({ fields, data }: { fields: readonly ReadField[]; data: Record<string, unknown> }) {
  const s = useStyles();
  const { t } = useTranslation();
  const groups = fields
    .map((f) => {
      const value = valueAt(data, f.pointer);
      return { field: f, ids: Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [] };
    })
    .filter((g) => g.ids.length > 0);
  if (!groups.length) return <Body1 data-region="no-files">{t('record.noFiles')}</Body1>;
  return (
    <div className={s.root} data-region="files">
      {groups.map(({ field, ids }) => (
        <section key={field.pointer} className={s.group} data-field={field.pointer}>
          <Subtitle2 as="h2" className={s.heading}>
            {field.titleKey ? t(field.titleKey) : field.pointer.slice(1)}
          </Subtitle2>
          <FileLinks ids={ids} />
        </section>
      ))}
    </div>
  );
}
