import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../types.ts';
import { Heading, Paragraph } from '../../app/shell/primitives.tsx';

/**
 * Static content from the locale files: `options.contentKey` names an object with a
 * `title`, section headings (keys starting with `heading`) and paragraphs (any other keys, in order), so the text is translated like
 * everything else and edited in pull requests. Drawn with the shell's light primitives:
 * public pages are often a first visit.
 */
export default function PageScreen({ screen }: ScreenProps) {
  const { t } = useTranslation();
  const contentKey = (screen.options as { contentKey?: string } | undefined)?.contentKey;
  const content = contentKey ? (t(contentKey, { returnObjects: true }) as Record<string, string> | string) : undefined;
  const entries = content && typeof content === 'object' ? Object.entries(content) : [];
  const title = entries.find(([k]) => k === 'title')?.[1] ?? t(screen.titleKey);
  return (
    <article style={{ maxWidth: 860, margin: '0 auto', padding: '8px 0 32px' }} data-screen={screen.id}>
      <Heading>{title}</Heading>
      {entries.filter(([k, v]) => k !== 'title' && typeof v === 'string').map(([k, v]) => (k.startsWith('heading')
        // Keys named heading… are section headings (e.g. the FAQ's categories), the rest paragraphs.
        ? <h2 key={k} data-heading={k} style={{ fontSize: 20, margin: '24px 0 8px' }}>{v}</h2>
        : <Paragraph key={k} data-paragraph={k}>{v}</Paragraph>))}
    </article>
  );
}
