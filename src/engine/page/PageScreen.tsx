import { makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ScreenProps } from '../types.ts';
import { Heading, Paragraph } from '../common/primitives.tsx';
import { paragraphAnchor } from '../../definitions/knowledge.ts';

/** A card linking to a service (the main page's interactive services). */
interface PageCard {
  route: string;
  titleKey: string;
  descriptionKey?: string;
}

/** A titled block of paragraphs from the locale files (leadership, contacts, reception…). */
interface PageSection {
  id: string;
  titleKey: string;
  contentKey: string;
}

interface PageOptions {
  contentKey?: string;
  /** Service cards shown after the text, one link each (additive, issue #6). */
  cards?: PageCard[];
  cardsTitleKey?: string;
  /** Further sections after the cards. */
  sections?: PageSection[];
}

/** Headings and paragraphs of a locale object, in order: every string but its `title`. */
const paragraphs = (content: unknown): Array<[string, string]> =>
  content && typeof content === 'object'
    ? Object.entries(content as Record<string, unknown>).filter(
        (e): e is [string, string] => e[0] !== 'title' && typeof e[1] === 'string',
      )
    : [];

/**
 * Static content from the locale files: `options.contentKey` names an object with a
 * `title`, section headings (keys starting with `heading`) and paragraphs (any other keys, in
 * order), so the text is translated like everything else and edited in pull requests; `cards`
 * link to services and `sections` add titled blocks. Drawn with the shell's light primitives:
 * public pages are often a first visit.
 */
export default function PageScreen({ screen }: ScreenProps) {
  const { t } = useTranslation();
  const s = useStyles();
  const options = (screen.options ?? {}) as PageOptions;
  const content = options.contentKey
    ? (t(options.contentKey, { returnObjects: true }) as Record<string, string> | string)
    : undefined;
  const title =
    content && typeof content === 'object' && typeof content.title === 'string' ? content.title : t(screen.titleKey);
  // Keys named heading… are section headings (e.g. the FAQ's categories), the rest paragraphs;
  // inside a titled section they are one level lower.
  const blocks = (from: unknown, level: 'h2' | 'h3' = 'h2') =>
    paragraphs(from).map(([k, v]) => {
      if (!k.startsWith('heading'))
        return (
          <Paragraph key={k} id={paragraphAnchor(screen.id, k)} data-paragraph={k}>
            {v}
          </Paragraph>
        );
      const H = level;
      return (
        <H key={k} data-heading={k} className={s.h2}>
          {v}
        </H>
      );
    });
  return (
    <article className={s.root} data-screen={screen.id}>
      <Heading>{title}</Heading>
      {blocks(content)}
      {options.cards && (
        <section aria-labelledby={`${screen.id}-cards`} data-region="cards">
          <h2 id={`${screen.id}-cards`} className={s.h2}>
            {t(options.cardsTitleKey ?? 'engine.page.services')}
          </h2>
          <ul className={s.cards}>
            {options.cards.map((c) => (
              <li key={c.route} className={s.cardItem}>
                <Link to={c.route} className={s.card} data-card={c.route}>
                  <span className={s.cardTitle}>{t(c.titleKey)}</span>
                  {c.descriptionKey && <span className={s.cardText}>{t(c.descriptionKey)}</span>}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      {options.sections?.map((section) => (
        <section
          key={section.id}
          aria-labelledby={`${screen.id}-${section.id}`}
          data-section={section.id}
          className={s.section}
        >
          <h2 id={`${screen.id}-${section.id}`} className={s.h2}>
            {t(section.titleKey)}
          </h2>
          {blocks(t(section.contentKey, { returnObjects: true }), 'h3')}
        </section>
      ))}
    </article>
  );
}

const useStyles = makeStyles({
  root: { maxWidth: '1100px', margin: '0 auto', padding: '8px 0 32px', minWidth: 0 },
  h2: {
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    margin: `${tokens.spacingVerticalL} 0 ${tokens.spacingVerticalM}`,
  },
  cards: {
    listStyleType: 'none',
    padding: 0,
    margin: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  cardItem: { display: 'flex' },
  card: {
    flex: 1,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingVerticalM,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
    textDecoration: 'none',
    color: tokens.colorNeutralForeground1,
    backgroundColor: tokens.colorNeutralBackground1,
    fontFamily: tokens.fontFamilyBase,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover, border: `1px solid ${tokens.colorBrandStroke1}` },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  cardTitle: {
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase400,
    color: tokens.colorBrandForeground1,
  },
  cardText: { fontSize: tokens.fontSizeBase300, color: tokens.colorNeutralForeground2 },
  section: { marginTop: tokens.spacingVerticalM },
});
