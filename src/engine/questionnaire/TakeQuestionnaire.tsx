import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ScreenProps } from '../types.ts';
import type { QuestionnaireOptions } from './types.ts';
import type { AnswerReply } from '../../client/data-provider.ts';
import { ResultsTable } from './ResultsTable.tsx';
import { EntityForm, type EntityFormHandle } from '../form/EntityForm.tsx';
import { useDataProvider, useGetQuestionnaire, useGetQuestionnaireResults } from '../../client/react/hooks.ts';
import { HttpError } from '../../client/http.ts';
import { Heading, Notice, PageSpinner, Paragraph, ShellButton } from '../common/primitives.tsx';
import { formatDate } from '../../shared/format.ts';
import type { Question } from '../../shared/questionnaire.ts';

type Data = Record<string, unknown>;
interface Kept {
  key: string;
  reply?: AnswerReply;
  answers?: Data;
}

/**
 * The browser's idempotency key (and, once answered, the reply) of one questionnaire, kept in
 * localStorage: a second visit shows the first answer's outcome instead of a new form, and a
 * repeated send answers the first reply on the server — one response per browser.
 */
function useKept(storageKey: string): [Kept, (k: Kept) => void] {
  const [kept, setKept] = useState<Kept>(() => {
    try {
      const stored = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as Kept | null;
      if (stored?.key) return stored;
    } catch {
      /* an unreadable entry is replaced */
    }
    const fresh = { key: crypto.randomUUID() };
    localStorage.setItem(storageKey, JSON.stringify(fresh));
    return fresh;
  });
  return [
    kept,
    (k: Kept) => {
      localStorage.setItem(storageKey, JSON.stringify(k));
      setKept(k);
    },
  ];
}

/** What was answered to a question, as text. */
function answerText(q: Question, value: unknown, none: string): string {
  if (value === undefined || value === '' || (Array.isArray(value) && !value.length)) return none;
  const options = q.options ?? [];
  if (Array.isArray(value)) return value.map((i) => options[Number(i)]?.text ?? String(i)).join('; ');
  return q.type === 'single' ? (options[Number(value)]?.text ?? String(value)) : String(value);
}

/**
 * Answering one questionnaire (route `:id`): the form is the questionnaire's own answer
 * schema (built on the server from its questions, no correct marks), rendered by the entity
 * form; after sending, a scored one shows the score and each question's right answer, an
 * unscored one thanks and shows the public results where allowed.
 */
export default function TakeQuestionnaire({ screen }: ScreenProps) {
  const { t } = useTranslation();
  const s = useStyles();
  const { id } = useParams();
  const dataProvider = useDataProvider();
  const options = (screen.options ?? {}) as unknown as QuestionnaireOptions;
  const entity = screen.entity ?? '';
  const questionnaire = id ?? '';
  const [kept, setKept] = useKept(`questionnaire:${screen.entity}:${id}`);
  const [data, setData] = useState<Data>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>();
  const [failure, setFailure] = useState<string>();
  const [sending, setSending] = useState(false);
  const form = useRef<EntityFormHandle>(null);

  const query = useGetQuestionnaire(entity, questionnaire);
  const results = useGetQuestionnaireResults(entity, questionnaire, {
    responseId: kept.reply?.responseId,
    enabled: Boolean(kept.reply && !kept.reply.scored && kept.reply.showResults),
  });

  const send = async (answers: Data) => {
    setSending(true);
    setFailure(undefined);
    try {
      const reply = await dataProvider.answerQuestionnaire(entity, questionnaire, answers, kept.key);
      setKept({ ...kept, reply, answers });
      window.scrollTo({ top: 0 });
    } catch (error) {
      if (error instanceof HttpError && error.fieldErrors) {
        // The server names fields inside `answers`; the form's fields are the answers themselves.
        setServerErrors(
          Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k.replace(/^\/answers/, ''), v])),
        );
      }
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };

  const back = options.listRoute && (
    <Link to={options.listRoute} className={s.back} data-action="back">
      ← {t('engine.questionnaire.back')}
    </Link>
  );
  if (query.isPending)
    return (
      <div data-screen={screen.id}>
        <PageSpinner label={t('engine.loading')} />
      </div>
    );
  if (query.isError)
    return (
      <div data-screen={screen.id}>
        {back}
        <Notice intent="error" data-state="error">
          {query.error.message}
        </Notice>
      </div>
    );
  const q = query.data;
  const reply = kept.reply;

  return (
    <article data-screen={screen.id} data-entity={screen.entity} className={s.root}>
      {back}
      <Heading>{q.title ?? t(screen.titleKey)}</Heading>
      {q.description && <Paragraph>{q.description}</Paragraph>}
      {!reply && !q.open && (
        <Notice intent="warning" data-state="closed">
          {t('engine.questionnaire.closed')}
        </Notice>
      )}
      {!reply && q.open && (
        <>
          <p className={s.meta}>
            {q.openTo && t('engine.questionnaire.openUntil', { date: formatDate(q.openTo) })}
            {q.scored && q.passMark !== undefined && (
              <> · {t('engine.questionnaire.passMark', { passMark: q.passMark })}</>
            )}
          </p>
          <EntityForm
            ref={form}
            entity={screen.entity ?? ''}
            schema={q.schema}
            uiSchema={q.uiSchema}
            formData={data}
            onChange={(d) => {
              setData(d);
              setServerErrors(undefined);
            }}
            onSubmit={(d) => void send(d)}
            serverErrors={serverErrors}
          />
          {failure && (
            <Notice intent="error" data-state="failed">
              {failure}
            </Notice>
          )}
          <div className={s.bar}>
            <ShellButton
              appearance="primary"
              data-action="submit"
              disabled={sending}
              onClick={() => form.current?.submit()}
            >
              {t('engine.questionnaire.submit')}
            </ShellButton>
          </div>
        </>
      )}
      {reply && (
        <section data-region="outcome" className={s.outcome} aria-live="polite">
          <Notice data-state="answered">{t('engine.questionnaire.thanks')}</Notice>
          {reply.scored && (
            <>
              <p
                className={mergeClasses(s.score, reply.passed ? s.pass : s.fail)}
                data-score={reply.score}
                data-passed={String(reply.passed)}
              >
                {t('engine.questionnaire.score', { score: reply.score, maxScore: reply.maxScore })} —{' '}
                {t(reply.passed ? 'engine.questionnaire.passed' : 'engine.questionnaire.failed', {
                  passMark: reply.passMark,
                })}
              </p>
              <ol className={s.list}>
                {(reply.results ?? []).map((r) => {
                  const question = q.questions.find((x) => x.key === r.key);
                  if (!question) return null;
                  return (
                    <li key={r.key} data-question={r.key} data-correct={String(r.correct)} className={s.item}>
                      <span className={s.questionText}>{question.text}</span>
                      <span className={r.correct ? s.pass : s.fail}>
                        {t(r.correct ? 'engine.questionnaire.right' : 'engine.questionnaire.wrong')}
                      </span>
                      <span>
                        {t('engine.questionnaire.yourAnswer', {
                          answer: answerText(question, kept.answers?.[r.key], t('engine.questionnaire.noAnswer')),
                        })}
                      </span>
                      {!r.correct && (
                        <span data-right-answer>
                          {t('engine.questionnaire.rightAnswer', {
                            answer: answerText(question, r.correctOptions, '—'),
                          })}
                        </span>
                      )}
                    </li>
                  );
                })}
              </ol>
            </>
          )}
          {!reply.scored && reply.showResults && (
            <>
              <h2 className={s.h2}>{t('engine.questionnaire.results')}</h2>
              {results.data ? (
                <ResultsTable results={results.data} />
              ) : results.isError ? (
                <Notice intent="error">{results.error.message}</Notice>
              ) : (
                <PageSpinner label={t('engine.loading')} />
              )}
            </>
          )}
        </section>
      )}
    </article>
  );
}

const useStyles = makeStyles({
  root: {
    maxWidth: '800px',
    margin: '0 auto',
    padding: '8px 0 32px',
    minWidth: 0,
    display: 'grid',
    gap: tokens.spacingVerticalS,
  },
  back: { color: tokens.colorBrandForeground1, justifySelf: 'start' },
  meta: { margin: 0, color: tokens.colorNeutralForeground2 },
  bar: {
    display: 'flex',
    justifyContent: 'flex-end',
    paddingTop: tokens.spacingVerticalM,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  outcome: { display: 'grid', gap: tokens.spacingVerticalM },
  score: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, margin: 0 },
  pass: { color: tokens.colorPaletteGreenForeground1, fontWeight: tokens.fontWeightSemibold },
  fail: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  list: { margin: 0, paddingLeft: '1.4em', display: 'grid', gap: tokens.spacingVerticalM },
  item: { display: 'grid', gap: '2px', overflowWrap: 'anywhere' },
  questionText: { fontWeight: tokens.fontWeightSemibold },
  h2: { fontSize: tokens.fontSizeBase500, margin: 0 },
});
