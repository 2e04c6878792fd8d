import { makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../shared/format.ts';
import { pickLocale } from '../../shared/locales.ts';
import type { QuestionnaireResults } from '../../client/data-provider.ts';

/**
 * Per-question results: for each question a table of its options (or ratings 1–5) with the
 * count and a share bar — a chart that is also a table, so keyboard and screen-reader users
 * read the same numbers; ratings add the average, free-text questions only how many answered.
 */
export function ResultsTable({ results, staff }: { results: QuestionnaireResults; staff?: boolean }) {
  const { t, i18n } = useTranslation();
  const s = useStyles();
  const locale = pickLocale(i18n.language);
  return (
    <div className={s.root} data-region="results">
      <p className={s.summary}>
        <strong data-total={results.total}>{t('engine.questionnaire.responses', { count: results.total })}</strong>
        {results.passedCount !== undefined && (
          <span> · {t('engine.questionnaire.passedCount', { count: results.passedCount })}</span>
        )}
      </p>
      {results.questions.map((q, index) => {
        const answered = Math.max(q.answered, 1);
        return (
          <section key={q.key} className={s.question} data-question={q.key} aria-labelledby={`results-${q.key}`}>
            <h3 id={`results-${q.key}`} className={s.h3}>
              {index + 1}. {q.text}
            </h3>
            <p className={s.meta}>
              {t('engine.questionnaire.answered', { count: q.answered })}
              {q.type === 'rating' && q.average !== null && q.average !== undefined && (
                <> · {t('engine.questionnaire.average', { value: formatNumber(q.average, locale) })}</>
              )}
            </p>
            {q.options && (
              <table className={s.table}>
                <thead>
                  <tr>
                    <th scope="col" className={s.th}>
                      {t('engine.questionnaire.option')}
                    </th>
                    <th scope="col" className={s.thNum}>
                      {t('engine.questionnaire.count')}
                    </th>
                    <th scope="col" className={s.thBar}>
                      {t('engine.questionnaire.share')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {q.options.map((o, i) => {
                    const share = Math.round((o.count * 100) / answered);
                    return (
                      <tr key={i} data-option={i}>
                        <td className={s.td}>{o.text}</td>
                        <td className={s.num} data-count={o.count}>
                          {o.count}
                        </td>
                        <td className={s.td}>
                          <span className={s.barCell}>
                            <span className={s.barTrack} aria-hidden="true">
                              <span className={s.bar} style={{ width: `${share}%` }} />
                            </span>
                            <span className={s.share}>{share}%</span>
                          </span>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
            {q.type === 'text' && staff && <p className={s.meta}>{t('engine.questionnaire.textAnswers')}</p>}
          </section>
        );
      })}
    </div>
  );
}

const useStyles = makeStyles({
  root: { display: 'grid', gap: tokens.spacingVerticalL, minWidth: 0 },
  summary: { margin: 0, fontSize: tokens.fontSizeBase400 },
  question: { display: 'grid', gap: tokens.spacingVerticalXS, minWidth: 0 },
  h3: { fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400, margin: 0, overflowWrap: 'anywhere' },
  meta: { margin: 0, color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase300 },
  table: { borderCollapse: 'collapse', width: '100%', fontSize: tokens.fontSizeBase300, tableLayout: 'fixed' },
  th: { textAlign: 'left', padding: '6px', borderBottom: `2px solid ${tokens.colorNeutralStroke1}` },
  thNum: {
    textAlign: 'right',
    padding: '6px',
    borderBottom: `2px solid ${tokens.colorNeutralStroke1}`,
    width: '5.5em',
  },
  thBar: { textAlign: 'left', padding: '6px', borderBottom: `2px solid ${tokens.colorNeutralStroke1}`, width: '38%' },
  td: { padding: '6px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, overflowWrap: 'anywhere' },
  num: { padding: '6px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, textAlign: 'right' },
  barCell: { display: 'flex', alignItems: 'center', gap: '6px' },
  barTrack: {
    flex: 1,
    height: '10px',
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusSmall,
    overflow: 'hidden',
    minWidth: '24px',
  },
  bar: { display: 'block', height: '100%', backgroundColor: tokens.colorBrandBackground },
  share: { minWidth: '3em', textAlign: 'right' },
});
