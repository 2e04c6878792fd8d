import { makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { valueAt } from '../../shared/pointer.ts';
import { isEmptyValue, type ReadField, type ReadSection } from './read-view.ts';
import { ReadValue, type ReadTools } from './ReadValue.tsx';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '960px' },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  heading: { margin: 0 },
  list: {
    display: 'grid',
    gridTemplateColumns: 'minmax(140px, 30%) 1fr',
    columnGap: tokens.spacingHorizontalL,
    margin: 0,
    '@media (max-width: 600px)': { gridTemplateColumns: '1fr' },
  },
  row: {
    display: 'contents',
  },
  term: {
    color: tokens.colorNeutralForeground3,
    padding: `${tokens.spacingVerticalS} 0`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    '@media (max-width: 600px)': { borderBottom: 'none', paddingBottom: 0 },
  },
  value: {
    margin: 0,
    padding: `${tokens.spacingVerticalS} 0`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    minWidth: 0,
    overflowWrap: 'anywhere',
  },
});

/** One field as a term and its value (`data-field` as on the form, for testers). */
export function FactRow({ field, value, tools }: { field: ReadField; value: unknown; tools: ReadTools }) {
  const s = useStyles();
  const { t } = useTranslation();
  return (
    <div className={s.row} data-field={field.pointer}>
      <dt className={s.term}>{field.titleKey ? t(field.titleKey) : field.pointer.slice(1)}</dt>
      <dd className={s.value}>
        <ReadValue field={field} value={value} tools={tools} />
      </dd>
    </div>
  );
}

/**
 * The record read-only: its labelled sections as description lists, empty fields and empty
 * sections left out, no form controls (see read-view.ts for the sections).
 * @example <RecordView sections={readSections(schema, ui, hidden)} data={record} tools={tools} />
 */
export function RecordView({
  sections,
  data,
  tools,
}: {
  sections: readonly ReadSection[];
  data: Record<string, unknown>;
  tools: ReadTools;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const shown = sections
    .map((section) => ({ section, fields: section.fields.filter((f) => !isEmptyValue(valueAt(data, f.pointer))) }))
    .filter(({ fields }) => fields.length > 0);
  if (!shown.length) return <p data-region="record-empty">{t('record.empty')}</p>;
  return (
    <div className={s.root} data-region="record-view">
      {shown.map(({ section, fields }, i) => (
        <section key={`${section.pointer}-${i}`} className={s.section} data-section={section.pointer || '/'}>
          {section.titleKeys.length > 0 && (
            <Subtitle2 as="h2" className={s.heading}>
              {section.titleKeys.map((k) => t(k)).join(' › ')}
            </Subtitle2>
          )}
          <dl className={s.list}>
            {fields.map((f) => (
              <FactRow key={f.pointer} field={f} value={valueAt(data, f.pointer)} tools={tools} />
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}
