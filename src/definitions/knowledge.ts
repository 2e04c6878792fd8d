import type { ChatbotOptions, ScreenDefinition } from '../generated/meta.ts';
import { LOCALES, type Locale } from '../shared/locales.ts';

/** One entry's text in one language. */
export interface KnowledgeText {
  /** The question (FAQ) or the service's name. */
  title: string;
  /** The answer (FAQ) or the service's description. */
  text: string;
  /** The FAQ category (the heading above the question), when there is one. */
  category?: string;
  /** Further words and question variants visitors use (the chat bot screen's `entries`). */
  variants: readonly string[];
}

/** One thing the chat bot can answer: a FAQ question or a public service. */
export interface KnowledgeEntry {
  /** `faq:<paragraph key>` or `service:<card route>`. */
  id: string;
  /** Where the answer leads: the service's route or the FAQ paragraph's anchor. */
  link: string;
  texts: Record<Locale, KnowledgeText>;
}

/** The sources the base is generated from: the screens and the merged texts of each locale. */
export interface KnowledgeSources {
  screens: ReadonlyMap<string, ScreenDefinition> | ReadonlyArray<ScreenDefinition>;
  locales: Record<Locale, Record<string, unknown>>;
}

/** The FAQ's question and answer are written as one paragraph, "question — answer". */
const QUESTION_ANSWER = /\s+[—–-]\s+/;

/** The value at a dotted i18n key of a locale tree. */
function at(tree: Record<string, unknown>, key: string): unknown {
  let node: unknown = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

const textAt = (tree: Record<string, unknown>, key: string | undefined): string => {
  const value = key ? at(tree, key) : undefined;
  return typeof value === 'string' ? value : '';
};

/** The anchor of a page paragraph (PageScreen gives each paragraph this id). */
export const paragraphAnchor = (screenId: string, key: string): string => `${screenId}-${key}`;

interface PageOptions {
  contentKey?: string;
  cards?: Array<{ route: string; titleKey: string; descriptionKey?: string }>;
}

/** The screen of kind `chatbot` (the first, if several), whose options define the base. */
export function chatbotScreen(screens: KnowledgeSources['screens']): ScreenDefinition | undefined {
  return [...screens.values()].find((s) => s.kind === 'chatbot');
}

/**
 * The chat bot's knowledge base, generated from the definitions: one entry per question of the
 * FAQ page (each paragraph "question — answer" of its contentKey, under the heading before it)
 * and one per service card of the services page, each in the four languages of their texts,
 * with the chat bot screen's extra words (`entries`). Nothing is copied: a FAQ question
 * added to the locale files or a card added to the page is in the base at the next start.
 * @example buildKnowledge(registry, chatbotScreen(registry.screens.values())!.options)
 */
export function buildKnowledge(sources: KnowledgeSources, options: ChatbotOptions): KnowledgeEntry[] {
  const screens = new Map([...sources.screens.values()].map((s) => [s.id, s]));
  const extra = (id: string, locale: Locale): readonly string[] => options.entries?.[id]?.[locale] ?? [];
  const out: KnowledgeEntry[] = [];

  const faq = screens.get(options.faqScreen);
  const contentKey = (faq?.options as PageOptions | undefined)?.contentKey;
  if (faq && contentKey) {
    // The paragraph keys in the order of the default locale's file.
    const content = at(sources.locales.en, contentKey);
    const keys = content && typeof content === 'object' ? Object.keys(content) : [];
    const paragraphKeys = keys.filter((k) => k !== 'title' && !k.startsWith('heading'));
    for (const key of paragraphKeys) {
      const id = `faq:${key}`;
      const texts = {} as Record<Locale, KnowledgeText>;
      for (const locale of LOCALES) {
        const tree = sources.locales[locale];
        const paragraph = textAt(tree, `${contentKey}.${key}`);
        const [question = paragraph, ...answer] = paragraph.split(QUESTION_ANSWER);
        // The heading above the paragraph in the file's order is its category.
        const heading = keys.slice(0, keys.indexOf(key)).findLast((k) => k.startsWith('heading'));
        const category = heading ? textAt(tree, `${contentKey}.${heading}`) : '';
        texts[locale] = {
          title: question,
          text: answer.join(' — ') || paragraph,
          ...(category ? { category } : {}),
          variants: extra(id, locale),
        };
      }
      out.push({ id, link: `${faq.route}#${paragraphAnchor(faq.id, key)}`, texts });
    }
  }

  const services = screens.get(options.servicesScreen);
  for (const card of (services?.options as PageOptions | undefined)?.cards ?? []) {
    const id = `service:${card.route}`;
    const texts = {} as Record<Locale, KnowledgeText>;
    for (const locale of LOCALES) {
      const tree = sources.locales[locale];
      texts[locale] = {
        title: textAt(tree, card.titleKey),
        text: textAt(tree, card.descriptionKey),
        variants: extra(id, locale),
      };
    }
    out.push({ id, link: card.route, texts });
  }
  return out;
}
