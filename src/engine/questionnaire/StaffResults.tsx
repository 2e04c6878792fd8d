import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { makeStyles, tokens } from '@fluentui/react-components';
import type { ScreenProps } from '../types.ts';
import { ResultsTable } from './ResultsTable.tsx';
import { useGetQuestionnaireChoices, useGetQuestionnaireResults } from '../../client/react/hooks.ts';
import { Heading, Notice, PageSpinner } from '../common/primitives.tsx';
import { manifests } from '../../definitions/client.ts';
import { getAtPointer } from '../../shared/pointer.ts';

/** The manifest's label field of a record (a pointer into its data). */
const labelOf = (record: Record<string, unknown>, pointer: string | undefined): string =>
  String((pointer ? getAtPointer(record, pointer) : undefined) ?? `#${String(record.id)}`);

/**
 * Per-question results for staff: the questionnaire is chosen from the entity's records (the
 * newest 100, labelled by the manifest's label field) or given as `?id=`; the counts come from
 * the results route, which answers staff who may read the responses for any questionnaire.
 */
export default function StaffResults({ screen }: ScreenProps) {
  const { t } = useTranslation();
  const s = useStyles();
  const [params, setParams] = useSearchParams();
  const entity = screen.entity ?? '';
  const chosen = params.get('id') ?? '';
  const records = useGetQuestionnaireChoices(entity);
  const results = useGetQuestionnaireResults(entity, chosen, { enabled: chosen !== '' });
  const labelField = manifests.get(entity)?.labelField;
  return (
    <div data-screen={screen.id} data-entity={entity} className={s.root}>
      <Heading>{t(screen.titleKey)}</Heading>
      <label className={s.filter} htmlFor="questionnaire-choice">
        <span>{t('engine.questionnaire.choose')}</span>
        <select
          id="questionnaire-choice"
          className={s.control}
          value={chosen}
          data-filter="id"
          onChange={(e) => setParams(e.target.value ? { id: e.target.value } : {})}
        >
          <option value="">—</option>
          {records.data?.map((r) => (
            <option key={r.id} value={String(r.id)}>
              #{r.id} {labelOf(r, labelField)}
            </option>
          ))}
        </select>
      </label>
      {!chosen && <Notice data-state="choose">{t('engine.questionnaire.chooseHint')}</Notice>}
      {chosen && results.isPending && <PageSpinner label={t('engine.loading')} />}
      {chosen && results.isError && (
        <Notice intent="error" data-state="error">
          {results.error.message}
        </Notice>
      )}
      {results.data &&
        (results.data.total ? (
          <ResultsTable results={results.data} staff />
        ) : (
          <Notice data-state="empty">{t('engine.questionnaire.noResponses')}</Notice>
        ))}
    </div>
  );
}

const useStyles = makeStyles({
  root: {
    maxWidth: '1000px',
    margin: '0 auto',
    padding: '8px 0 32px',
    display: 'grid',
    gap: tokens.spacingVerticalL,
    minWidth: 0,
  },
  filter: { display: 'grid', gap: '4px', maxWidth: '520px', fontWeight: tokens.fontWeightSemibold },
  control: {
    font: 'inherit',
    fontWeight: tokens.fontWeightRegular,
    padding: '8px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    minHeight: '40px',
    width: '100%',
  },
});
