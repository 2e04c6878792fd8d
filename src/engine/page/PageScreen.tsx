import { Body1, makeStyles, Title2, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../types.ts';

const useStyles = makeStyles({
  root: { maxWidth: '860px', margin: '0 auto', padding: '8px 0 32px' },
  p: { display: 'block', marginBottom: tokens.spacingVerticalM, lineHeight: tokens.lineHeightBase400 },
});

/**
 * Static content from the locale files: `options.contentKey` names an object with a
 * `title` and paragraphs (any other keys, in order), so the text is translated like
 * everything else and edited in pull requests.
 */
export default function PageScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const contentKey = (screen.options as { contentKey?: string } | undefined)?.contentKey;
  const content = contentKey ? (t(contentKey, { returnObjects: true }) as Record<string, string> | string) : undefined;
  const entries = content && typeof content === 'object' ? Object.entries(content) : [];
  const title = entries.find(([k]) => k === 'title')?.[1] ?? t(screen.titleKey);
  return (
    <article className={s.root} data-screen={screen.id}>
      <Title2 as="h1">{title}</Title2>
      {entries.filter(([k, v]) => k !== 'title' && typeof v === 'string').map(([k, v]) => (
        <Body1 as="p" key={k} className={s.p} data-paragraph={k}>{v}</Body1>
      ))}
    </article>
  );
}
