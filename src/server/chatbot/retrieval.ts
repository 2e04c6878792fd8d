import MiniSearch from 'minisearch';
import type { KnowledgeEntry } from '../../definitions/knowledge.ts';
import { LOCALES, type Locale } from '../../shared/locales.ts';
import { groupOf, searchTerms, type LanguageGroup } from './normalize.ts';

/** One answer the bot gives: the entry's title and text in the asker's language, and where it leads. */
export interface ChatbotAnswer {
  id: string;
  title: string;
  text: string;
  link: string;
  score: number;
}

/** What the index answers a question. */
export interface ChatbotReply {
  answers: ChatbotAnswer[];
  matched: boolean;
}

/** How the index weighs and cuts. */
export interface RetrievalOptions {
  /** The least score of an answer (default 15). */
  minScore?: number;
  /** Answers at most (default 3). */
  maxAnswers?: number;
}

interface IndexedDocument {
  key: string;
  entry: string;
  group: LanguageGroup;
  title: string;
  variants: string;
  text: string;
  category: string;
}

const GROUPS: readonly LanguageGroup[] = ['uz', 'ru', 'en'];

/** The locales whose texts a group's document holds: both Uzbek scripts in one. */
const localesOf = (group: LanguageGroup): Locale[] => LOCALES.filter((l) => groupOf(l) === group);

/**
 * The chat bot's retrieval over the knowledge base (MiniSearch). Each entry is indexed once per
 * language group — Uzbek (Cyrillic and Latin texts together, folded to one Latin form), Russian,
 * English — as already folded and stemmed words (normalize.ts), so that a question folded the
 * same way meets them whatever script or apostrophe it was typed with. Questions are matched
 * by prefix (light stemming) and, for longer words, with one typo. A question is searched in its
 * language's group first, then in all (a Russian question on the Uzbek page); answers are
 * given in the asker's language. Below `minScore` nothing is an answer (`matched: false`).
 * @example createChatbotIndex(buildKnowledge(registry, options)).ask('Ёлғон реклама', 'uzCyrillic')
 */
export function createChatbotIndex(entries: readonly KnowledgeEntry[], options: RetrievalOptions = {}) {
  const minScore = options.minScore ?? 15;
  const maxAnswers = options.maxAnswers ?? 3;
  const byId = new Map(entries.map((e) => [e.id, e]));
  const index = new MiniSearch<IndexedDocument>({
    idField: 'key',
    fields: ['title', 'variants', 'text', 'category'],
    storeFields: ['entry', 'group'],
    // The fields hold folded, stemmed words separated by spaces (see `fold` below).
    tokenize: (text) => text.split(' ').filter(Boolean),
    processTerm: (term) => term,
  });
  const fold = (texts: string[], group: LanguageGroup) => texts.flatMap((t) => searchTerms(t, group)).join(' ');
  index.addAll(
    entries.flatMap((entry) =>
      GROUPS.map((group) => {
        const texts = localesOf(group).map((l) => entry.texts[l]);
        return {
          key: `${entry.id} ${group}`,
          entry: entry.id,
          group,
          title: fold(
            texts.map((t) => t.title),
            group,
          ),
          variants: fold(
            texts.flatMap((t) => t.variants),
            group,
          ),
          text: fold(
            texts.map((t) => t.text),
            group,
          ),
          category: fold(
            texts.map((t) => t.category ?? ''),
            group,
          ),
        };
      }),
    ),
  );

  const search = (terms: string[], group: LanguageGroup | undefined) =>
    index.search(terms.join(' '), {
      prefix: true,
      // One typo in words of six letters or more; short words must be spelt right.
      fuzzy: (term) => (term.length >= 6 ? 1 : false),
      boost: { title: 3, variants: 2, text: 1, category: 0.5 },
      ...(group ? { filter: (r) => r.group === group } : {}),
    });

  /**
   * The results of a group that answer the question: enough score, and at least half of the
   * question's words found — one common word (a price, a case) is not an answer to a sentence.
   */
  const relevant = (question: string, group: LanguageGroup) => {
    const terms = searchTerms(question, group);
    if (!terms.length) return [];
    return search(terms, group).filter((r) => r.score >= minScore && r.queryTerms.length * 2 >= terms.length);
  };

  return {
    /** The best answers to a question in a locale, or `matched: false` when none scores enough. */
    ask(question: string, lang: Locale): ChatbotReply {
      const own = groupOf(lang);
      let results = relevant(question, own);
      // Perhaps the question is in another language than the page: fold it per group and try each.
      if (!results.length) results = GROUPS.filter((g) => g !== own).flatMap((g) => relevant(question, g));
      results.sort((a, b) => b.score - a.score);
      const seen = new Set<string>();
      const answers: ChatbotAnswer[] = [];
      for (const r of results) {
        const entry = byId.get(r.entry as string);
        if (!entry || seen.has(entry.id)) continue;
        seen.add(entry.id);
        const text = entry.texts[lang];
        answers.push({ id: entry.id, title: text.title, text: text.text, link: entry.link, score: r.score });
        if (answers.length >= maxAnswers) break;
      }
      return { answers, matched: answers.length > 0 };
    },
  };
}

/** The index's type, for the route plugin. */
export type ChatbotIndex = ReturnType<typeof createChatbotIndex>;
