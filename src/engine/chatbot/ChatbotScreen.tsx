/**
 * The `chatbot` screen kind, for staff: the questions visitors asked the chat bot that it
 * could not answer (`GET /api/chatbot/unanswered`), most asked first — the question, its
 * language, how often and when it was last asked — each with "mark as handled" once the words
 * people use are in the bot's definitions. A switch shows the handled ones. One card per
 * question, so it reads the same on a phone. Names no entity.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Switch, Text, Title2, makeStyles, tokens } from '@fluentui/react-components';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { useDataProvider } from '../../client/react/hooks.ts';
import { useApi } from '../../client/react/context.tsx';
import { useAbility } from '../../client/react/ability.tsx';
import { ScreenState } from '../common/ScreenState.tsx';

/** One unanswered question, grouped over the times it was asked. */
export interface UnansweredQuestion {
  question: string;
  lang: string;
  count: number;
  lastAsked: string;
  handled: boolean;
}

const LANGUAGE_NAMES: Record<string, string> = { uz: 'Oʻzbekcha', uzCyrillic: 'Ўзбекча', ru: 'Русский', en: 'English' };

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  list: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  card: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflowWrap: 'anywhere',
  },
  question: { flexGrow: 1, flexBasis: '240px', fontWeight: tokens.fontWeightSemibold },
  meta: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
});

/** The unanswered questions of the chat bot, with "mark as handled". */
export default function ChatbotScreen({ screen }: { screen: ScreenDefinition }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const dp = useDataProvider();
  const { reportError, notifySuccess } = useApi();
  const ability = useAbility();
  const queryClient = useQueryClient();
  const [showHandled, setShowHandled] = useState(false);
  const [, subject = ''] = screen.permission.split(' ');
  const canUpdate = ability.can('update', subject);
  const key = ['chatbot-unanswered', showHandled];
  const questions = useQuery({
    queryKey: key,
    queryFn: () =>
      dp.callEndpoint<{ list: UnansweredQuestion[] }>({
        method: 'GET',
        path: '/api/chatbot/unanswered',
        query: showHandled ? { handled: 'true' } : {},
      }),
  });
  const markHandled = useMutation({
    mutationFn: (q: UnansweredQuestion) =>
      dp.callEndpoint({
        method: 'POST',
        path: '/api/chatbot/unanswered/handled',
        body: { question: q.question, lang: q.lang },
      }),
    onSuccess: () => {
      notifySuccess('chatbot.staff.handled');
      void queryClient.invalidateQueries({ queryKey: ['chatbot-unanswered'] });
    },
    onError: reportError,
  });
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-GB' : 'ru-RU', {
      dateStyle: 'short',
      timeStyle: 'short',
      timeZone: 'Asia/Tashkent',
    }).format(new Date(iso));

  if (questions.error && !questions.data)
    return (
      <section data-screen={screen.id}>
        <ScreenState screenId={screen.id} error={questions.error} onRetry={() => void questions.refetch()} />
      </section>
    );
  const list = questions.data?.list ?? [];
  return (
    <section className={s.root} data-screen={screen.id} aria-busy={questions.isFetching}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      <Text>{t('chatbot.staff.intro')}</Text>
      <Switch
        label={t('chatbot.staff.showHandled')}
        checked={showHandled}
        data-action="show-handled"
        onChange={(_, d) => setShowHandled(d.checked)}
      />
      {questions.data && !list.length && <Text data-state="empty">{t('chatbot.staff.empty')}</Text>}
      <ul className={s.list} aria-label={t(screen.titleKey)}>
        {list.map((q) => (
          <li key={`${q.lang} ${q.question}`} className={s.card} data-question={q.question}>
            <span className={s.question} lang={q.lang === 'uzCyrillic' ? 'uz-Cyrl' : q.lang}>
              {q.question}
            </span>
            <span className={s.meta}>
              <Badge appearance="tint" title={t('chatbot.staff.language')}>
                {LANGUAGE_NAMES[q.lang] ?? q.lang}
              </Badge>
              <Badge appearance="filled" color="informative" data-state="count" title={t('chatbot.staff.count')}>
                {t('chatbot.staff.count')}: {q.count}
              </Badge>
              <Text size={200}>
                {t('chatbot.staff.lastAsked')}: {when(q.lastAsked)}
              </Text>
            </span>
            {canUpdate && !q.handled && (
              <Button data-action="mark-handled" disabled={markHandled.isPending} onClick={() => markHandled.mutate(q)}>
                {t('chatbot.staff.markHandled')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
