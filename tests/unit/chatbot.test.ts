/**
 * The chat bot's knowledge base and retrieval (issue #20 item 6): the base is generated from
 * the FAQ page and the home page's service cards (nothing copied), Uzbek is found whatever the
 * script or apostrophe, and a fixed set of questions per language finds the right entry first;
 * nonsense finds nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry, type DefinitionRegistry } from '../../src/definitions/registry.ts';
import { buildKnowledge, chatbotScreen, type KnowledgeEntry } from '../../src/definitions/knowledge.ts';
import type { ChatbotOptions } from '../../src/generated/meta.ts';
import { createChatbotIndex, type ChatbotIndex } from '../../src/server/chatbot/retrieval.ts';
import { foldText, searchTerms } from '../../src/server/chatbot/normalize.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import type { Locale } from '../../src/shared/locales.ts';

let registry: DefinitionRegistry;
let options: ChatbotOptions;
let entries: KnowledgeEntry[];
let bot: ChatbotIndex;
beforeAll(async () => {
  registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
  options = chatbotScreen(registry.screens)!.options as unknown as ChatbotOptions;
  entries = buildKnowledge(registry, options);
  bot = createChatbotIndex(entries, options);
});

describe('folding', () => {
  it('folds Uzbek Cyrillic and every Latin apostrophe to one form', () => {
    const forms = ['Ўзбекистон тўлови ғалла', 'Oʻzbekiston toʻlovi gʻalla', "O'zbekiston to'lovi g'alla"];
    const more = ['O`zbekiston to`lovi g`alla', 'O’zbekiston to’lovi g’alla', 'Oʼzbekiston toʼlovi gʼalla'];
    const folded = new Set([...forms, ...more].map((t) => foldText(t, 'uz')));
    expect([...folded]).toEqual(['ozbekiston tolovi galla']);
    expect(foldText('Шаҳар чой ёз юз ял цех қарор', 'uz')).toBe('shahar choy yoz yuz yal tsex qaror');
    expect(foldText('Ещё', 'ru')).toBe('еще');
  });

  it('stems light and drops stop words', () => {
    expect(searchTerms('Как вернуть лекарства в аптеку?', 'ru')).toEqual(['вернут', 'лекарств', 'аптек']);
    expect(searchTerms('dorixonalarda', 'uz')).toEqual(['dorixona']);
  });
});

describe('knowledge base', () => {
  it('has every FAQ paragraph and every service card of the definitions, in four languages, with a link', () => {
    const faq = registry.screens.get(options.faqScreen)!;
    const paragraphs = Object.keys((registry.locales.en.page as { faq: object }).faq).filter(
      (k) => k !== 'title' && !k.startsWith('heading'),
    );
    const cards = (registry.screens.get(options.servicesScreen)!.options as { cards: Array<{ route: string }> }).cards;
    expect(entries.map((e) => e.id)).toEqual([
      ...paragraphs.map((k) => `faq:${k}`),
      ...cards.map((c) => `service:${c.route}`),
    ]);
    for (const entry of entries)
      for (const lang of ['uz', 'uzCyrillic', 'ru', 'en'] as const) {
        expect(entry.texts[lang].title, `${entry.id} ${lang}`).not.toBe('');
        expect(entry.texts[lang].variants.length, `${entry.id} ${lang}`).toBeGreaterThan(0);
      }
    const q4 = entries.find((e) => e.id === 'faq:q4')!;
    expect(q4.link).toBe(`${faq.route}#faq-q4`);
    expect(q4.texts.ru.title).toBe('Какую предоплату за природный газ могут потребовать?');
    expect(q4.texts.ru.text).toMatch(/^Не более чем за два месяца/);
    expect(q4.texts.en.category).toBe('Housing and utilities');
  });
});

const CASES: Array<[Locale, string, string]> = [
  // uzCyrillic
  ['uzCyrillic', 'Почта жўнатмаси қанча сақланади?', 'faq:q1'],
  ['uzCyrillic', 'Дорихонадан олинган дорини қайтарса бўладими?', 'faq:q3'],
  ['uzCyrillic', 'Ёлғон реклама ҳақида қаерга ёзаман', 'faq:q2'],
  ['uzCyrillic', 'Газ учун олдиндан тўлов', 'faq:q4'],
  ['uzCyrillic', 'Бензин нархлари қаерда', 'service:/fair-price-stations'],
  ['uzCyrillic', 'Суд мажлиси қачон бўлади', 'service:/court-table'],
  // uz (Latin), with each apostrophe people type
  ['uz', 'Pochta joʻnatmasi qancha vaqt saqlanadi', 'faq:q1'],
  ['uz', "Gaz uchun oldindan to'lov qancha", 'faq:q4'],
  ['uz', 'qayta ulash narxi qancha', 'faq:q5'],
  ['uz', 'murojaatimning holatini qanday bilaman', 'service:/online-watching'],
  ['uz', 'shtrix kod boʻyicha mahsulot', 'service:/product-services'],
  // a Latin question finding an entry written only in Cyrillic words (its variants are Cyrillic-only here)
  ['uz', 'sud xabarnomasi', 'service:/sud-xabarnomasi'],
  ['uz', 'Dorixonadan olingan dorini qaytarish mumkinmi', 'faq:q3'],
  // ru
  ['ru', 'Сколько хранится посылка на почте?', 'faq:q1'],
  ['ru', 'Можно ли вернуть лекарство в аптеку', 'faq:q3'],
  ['ru', 'Как пожаловаться на обманную рекламу', 'faq:q2'],
  ['ru', 'предоплата за газ', 'faq:q4'],
  ['ru', 'Где посмотреть цены на бензин', 'service:/fair-price-stations'],
  ['ru', 'как узнать статус моего обращения', 'service:/online-watching'],
  // en
  ['en', 'How long does the post office keep my parcel?', 'faq:q1'],
  ['en', 'Can I return medicine to the pharmacy?', 'faq:q3'],
  ['en', 'misleading advertising complaint', 'faq:q2'],
  ['en', 'reconnection fee after being cut off', 'faq:q5'],
  ['en', 'petrol prices', 'service:/fair-price-stations'],
  ['en', 'when is my court hearing', 'service:/court-table'],
];

describe('retrieval', () => {
  it.each(CASES)('%s: "%s" → %s first', (lang, question, id) => {
    const reply = bot.ask(question, lang);
    expect(reply.matched).toBe(true);
    expect(reply.answers[0]?.id).toBe(id);
  });

  it('finds a Cyrillic-authored entry from a Latin question (and the other way round)', () => {
    // An entry whose only words are Cyrillic: the same words asked in Latin find it.
    const cyrillicOnly: KnowledgeEntry = {
      id: 'faq:cyr',
      link: '/faq#faq-cyr',
      texts: Object.fromEntries(
        (['uz', 'uzCyrillic', 'ru', 'en'] as const).map((l) => [
          l,
          {
            title: l === 'uzCyrillic' ? 'Чорвачилик субсидияси қачон тўланади?' : '—',
            text: '—',
            variants: [] as string[],
          },
        ]),
      ) as unknown as KnowledgeEntry['texts'],
    };
    const small = createChatbotIndex([cyrillicOnly, ...entries]);
    expect(small.ask('chorvachilik subsidiyasi qachon toʻlanadi', 'uz').answers[0]?.id).toBe('faq:cyr');
    expect(small.ask("chorvachilik subsidiyasi to'lanadi", 'uz').answers[0]?.id).toBe('faq:cyr');
    expect(bot.ask('Почта жўнатмаси', 'uz').answers[0]?.id).toBe('faq:q1');
  });

  it('answers in the asker’s language, whatever language the question matched in', () => {
    const reply = bot.ask('Можно ли вернуть лекарство в аптеку', 'uzCyrillic');
    expect(reply.answers[0]?.id).toBe('faq:q3');
    expect(reply.answers[0]?.title).toBe('Дорихонадан сотиб олинган дори воситасини қайтариш мумкинми?');
  });

  it.each([
    ['ru', 'фывапролд джэ'],
    ['en', 'purple elephant quantum banana'],
    ['uz', 'kosmik kema marsga uchadi'],
    ['uzCyrillic', 'ҳаво ранги қандай'],
  ] as Array<[Locale, string]>)('%s: "%s" is not answered', (lang, question) => {
    const reply = bot.ask(question, lang);
    expect(reply).toEqual({ answers: [], matched: false });
  });
});
