import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { DismissRegular, SendRegular } from '@fluentui/react-icons';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useDataProvider } from '../../client/react/hooks.ts';

/** One answer of the bot (POST /api/chatbot/ask). */
interface ChatAnswer {
  id?: string;
  title: string;
  text: string;
  link: string;
}

interface AskReply {
  answers: ChatAnswer[];
  matched: boolean;
  appealLink?: string;
}

/** One turn of the conversation: the visitor's question and what the bot said. */
interface Turn {
  question: string;
  reply?: AskReply;
  failed?: boolean;
}

/** The longest question the server reads (src/server/routes/chatbot.ts). */
const QUESTION_MAX = 300;

const useStyles = makeStyles({
  // Bottom right beside the launcher; the whole screen on a phone.
  surface: {
    position: 'fixed',
    inset: 'auto 16px 16px auto',
    margin: 0,
    width: '400px',
    maxWidth: 'calc(100vw - 32px)',
    maxHeight: 'min(640px, calc(100vh - 32px))',
    padding: tokens.spacingHorizontalL,
    // Stretched by its four edges, not 100vw/100dvh: those count the page's scrollbar, and the
    // panel's right edge went under it.
    '@media (max-width: 480px)': {
      inset: 0,
      width: 'auto',
      maxWidth: 'none',
      height: 'auto',
      maxHeight: 'none',
      borderRadius: 0,
      padding: tokens.spacingHorizontalM,
    },
  },
  body: {
    display: 'flex',
    flexDirection: 'column',
    height: '100%',
    maxHeight: 'inherit',
    gap: tokens.spacingVerticalS,
  },
  // Takes the room left, so on a phone the question box stays at the bottom of the screen.
  content: {
    flexGrow: 1,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    minHeight: '120px',
    overflowY: 'auto',
  },
  intro: { color: tokens.colorNeutralForeground2, margin: 0 },
  question: {
    alignSelf: 'flex-end',
    maxWidth: '85%',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorBrandBackground2,
    overflowWrap: 'anywhere',
    margin: 0,
  },
  reply: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, margin: 0, padding: 0 },
  answer: {
    listStyleType: 'none',
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflowWrap: 'anywhere',
  },
  answerTitle: { fontWeight: tokens.fontWeightSemibold, margin: `0 0 ${tokens.spacingVerticalXS}` },
  answerText: { margin: `0 0 ${tokens.spacingVerticalXS}` },
  link: { color: tokens.colorBrandForegroundLink, fontWeight: tokens.fontWeightSemibold },
  form: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'end' },
  input: { flexGrow: 1 },
  // The body is a column, not Fluent's grid: the title's close button is put beside it here.
  titleRow: { display: 'flex', justifyContent: 'space-between', alignItems: 'start', gap: tokens.spacingHorizontalS },
  // Read out, not shown: who said what.
  hidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
});

/**
 * The chat bot's conversation, in a modal dialog (focus kept inside, Escape closes): a question
 * box, and per question the bot's answers — title, text, a link to the service or the FAQ
 * entry — or, when it has none, a link to the appeal form with the question filled in. The
 * conversation is a live region, so screen readers hear each reply.
 */
export default function ChatPanel({ onClose }: { onClose: () => void }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const dp = useDataProvider();
  const [question, setQuestion] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [asking, setAsking] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  // A block body: Chromium's scrollIntoView returns a promise, and an effect's return value is
  // its cleanup — React would call that promise on the next turn and the render would throw.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [turns]);

  const ask = async (e: FormEvent) => {
    e.preventDefault();
    const text = question.trim();
    if (!text || asking) return;
    setAsking(true);
    setQuestion('');
    setTurns((list) => [...list, { question: text }]);
    const settle = (turn: Partial<Turn>) =>
      setTurns((list) => list.map((x, i) => (i === list.length - 1 ? { ...x, ...turn } : x)));
    try {
      const reply = await dp.callEndpoint<AskReply>({
        method: 'POST',
        path: '/api/chatbot/ask',
        body: { question: text, lang: i18n.language },
      });
      settle({ reply });
    } catch {
      settle({ failed: true });
    } finally {
      setAsking(false);
    }
  };

  return (
    <Dialog open modalType="modal" onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={s.surface} data-region="chatbot" aria-describedby="chatbot-intro">
        <DialogBody className={s.body}>
          <div className={s.titleRow}>
            <DialogTitle
              action={
                <Button
                  appearance="subtle"
                  icon={<DismissRegular />}
                  aria-label={t('chatbot.close')}
                  data-action="chatbot-close"
                  onClick={onClose}
                />
              }
            >
              {t('chatbot.dialogTitle')}
            </DialogTitle>
          </div>
          <DialogContent className={s.content}>
            <p id="chatbot-intro" className={s.intro}>
              {t('chatbot.intro')}
            </p>
            <div role="log" aria-live="polite" aria-label={t('chatbot.dialogTitle')} data-region="chatbot-log">
              {turns.map((turn, i) => (
                <div key={i} data-turn={i} className={s.reply}>
                  <p className={s.question}>
                    <span className={s.hidden}>{t('chatbot.you')}: </span>
                    {turn.question}
                  </p>
                  {turn.failed && <p data-state="failed">{t('chatbot.failed')}</p>}
                  {turn.reply?.matched && (
                    <ul
                      className={s.reply}
                      aria-label={t('chatbot.answersFound', { count: turn.reply.answers.length })}
                    >
                      {turn.reply.answers.map((a) => (
                        <li key={a.link} className={s.answer} data-answer={a.id ?? a.link}>
                          <p className={s.answerTitle}>{a.title}</p>
                          <p className={s.answerText}>{a.text}</p>
                          <Link to={a.link} className={s.link} data-action="chatbot-answer-link" onClick={onClose}>
                            {t('chatbot.openLink')}: {a.title}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  )}
                  {turn.reply && !turn.reply.matched && (
                    <div className={s.answer} data-state="no-answer">
                      <p className={s.answerText}>{t('chatbot.noAnswer')}</p>
                      <Link
                        to={turn.reply.appealLink ?? '/'}
                        className={s.link}
                        data-action="chatbot-send-appeal"
                        onClick={onClose}
                      >
                        {t('chatbot.sendAppeal')}
                      </Link>
                    </div>
                  )}
                </div>
              ))}
              {asking && <Spinner size="tiny" label={t('chatbot.thinking')} data-state="asking" />}
            </div>
            <div ref={end} />
          </DialogContent>
          <form className={s.form} onSubmit={(e) => void ask(e)} data-region="chatbot-form">
            <Field label={t('chatbot.question')} className={s.input}>
              <Input
                value={question}
                maxLength={QUESTION_MAX}
                autoComplete="off"
                data-field="chatbot-question"
                onChange={(_, d) => setQuestion(d.value)}
              />
            </Field>
            <Button
              type="submit"
              appearance="primary"
              icon={<SendRegular />}
              disabled={asking}
              data-action="chatbot-ask"
            >
              {t('chatbot.ask')}
            </Button>
          </form>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
