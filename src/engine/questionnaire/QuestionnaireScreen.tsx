import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { makeStyles, tokens } from '@fluentui/react-components';
import type { ScreenProps } from '../types.ts';
import type { QuestionnaireOptions } from './types.ts';
import { useGetQuestionnaires } from '../../client/react/hooks.ts';
import { Heading, Notice, PageSpinner, Paragraph } from '../common/primitives.tsx';
import { formatDate } from '../../shared/format.ts';

const TakeQuestionnaire = lazy(() => import('./TakeQuestionnaire.tsx'));
const StaffResults = lazy(() => import('./StaffResults.tsx'));

/**
 * Questionnaires of an entity whose manifest declares `questionnaire` (polls and knowledge tests):
 * `options.mode` `list` — the open ones, each a card to its take route; `take` — answering one
 * (the form is built from its questions); `results` — per-question counts for staff. The form
 * (rjsf) loads only with `take`.
 */
export default function QuestionnaireScreen(props: ScreenProps) {
  const options = (props.screen.options ?? {}) as unknown as QuestionnaireOptions;
  const { t } = useTranslation();
  const fallback = <PageSpinner label={t('engine.loading')} />;
  if (options.mode === 'take')
    return (
      <Suspense fallback={fallback}>
        <TakeQuestionnaire {...props} />
      </Suspense>
    );
  if (options.mode === 'results')
    return (
      <Suspense fallback={fallback}>
        <StaffResults {...props} />
      </Suspense>
    );
  return <QuestionnaireList {...props} />;
}

function QuestionnaireList({ screen }: ScreenProps) {
  const { t } = useTranslation();
  const s = useStyles();
  const options = (screen.options ?? {}) as unknown as QuestionnaireOptions;
  const query = useGetQuestionnaires(screen.entity ?? '');
  const routeOf = (id: number) => (options.takeRoute ?? '/').replace(':id', String(id));
  return (
    <article data-screen={screen.id} className={s.root}>
      <Heading>{t(screen.titleKey)}</Heading>
      <Paragraph>{t('engine.questionnaire.intro')}</Paragraph>
      {query.isPending && <PageSpinner label={t('engine.loading')} />}
      {query.isError && (
        <Notice intent="error" data-state="error">
          {query.error.message}
        </Notice>
      )}
      {query.data && !query.data.length && <Notice data-state="empty">{t('engine.questionnaire.none')}</Notice>}
      {query.data && query.data.length > 0 && (
        <ul className={s.cards}>
          {query.data.map((q) => (
            <li key={q.id} className={s.item}>
              <Link to={routeOf(q.id)} className={s.card} data-card={q.id} data-scored={String(q.scored)}>
                <span className={s.badge}>
                  {t(q.scored ? 'engine.questionnaire.scored' : 'engine.questionnaire.unscored')}
                </span>
                <span className={s.title}>{q.title}</span>
                {q.description && <span className={s.text}>{q.description}</span>}
                <span className={s.meta}>
                  {t('engine.questionnaire.questionCount', { count: q.questionCount })}
                  {q.openTo && <> · {t('engine.questionnaire.openUntil', { date: formatDate(q.openTo) })}</>}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

const useStyles = makeStyles({
  root: { maxWidth: '1100px', margin: '0 auto', padding: '8px 0 32px', minWidth: 0 },
  cards: {
    listStyleType: 'none',
    padding: 0,
    margin: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  item: { display: 'flex', minWidth: 0 },
  card: {
    flex: 1,
    minWidth: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingVerticalM,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
    textDecoration: 'none',
    color: tokens.colorNeutralForeground1,
    backgroundColor: tokens.colorNeutralBackground1,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover, border: `1px solid ${tokens.colorBrandStroke1}` },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  badge: {
    alignSelf: 'flex-start',
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
    padding: '2px 8px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
  },
  title: {
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase400,
    color: tokens.colorBrandForeground1,
    overflowWrap: 'anywhere',
  },
  text: { fontSize: tokens.fontSizeBase300, color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  meta: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground2 },
});
