/**
 * Text folding for the chat bot's search: one spelling per word, whatever the script or the
 * apostrophe the visitor typed. Uzbek is written in Cyrillic and in Latin, so both are folded
 * to one Latin form (oʻ, o', o`, oʼ and ў all become `o`); Russian and English are lowercased
 * (ё → е). Words then lose a few common endings ("stemming-light"), and the search matches
 * them as prefixes, so "почте" finds "почтовое" and "toʻlovlar" finds "toʻlov".
 */

/** Uzbek Cyrillic → the Latin letters the folded form uses (apostrophes of oʻ/gʻ are dropped). */
const UZ_CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'yo',
  ж: 'j',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'x',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'sh',
  ъ: '',
  ы: 'i',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  ў: 'o',
  қ: 'q',
  ғ: 'g',
  ҳ: 'h',
};

/** Every apostrophe Uzbek Latin is typed with: ʻ (U+02BB), ʼ (U+02BC), ', `, ’, ‘. */
const APOSTROPHES = /[\u02BB\u02BC'`\u2019\u2018]/g;

/** The language groups the index keeps apart: both Uzbek scripts are one. */
export type LanguageGroup = 'uz' | 'ru' | 'en';

/** uz and uzCyrillic → uz; ru → ru; everything else → en. */
export const groupOf = (lang: string): LanguageGroup =>
  lang === 'uz' || lang === 'uzCyrillic' ? 'uz' : lang === 'ru' ? 'ru' : 'en';

/**
 * Folds a text of a language group to the form that is indexed and searched: lowercase, Uzbek
 * in Latin letters without apostrophes, Russian with е for ё.
 * @example foldText('Ўзбекистон почтаси', 'uz') // 'ozbekiston pochtasi'
 * @example foldText('Oʻzbekiston pochtasi', 'uz') // 'ozbekiston pochtasi'
 */
export function foldText(text: string, group: LanguageGroup): string {
  const lower = text.normalize('NFC').toLowerCase();
  if (group === 'ru') return lower.replace(/ё/g, 'е').replace(APOSTROPHES, '');
  if (group === 'en') return lower.replace(APOSTROPHES, '');
  let out = '';
  let previous = '';
  for (const ch of lower.replace(APOSTROPHES, '')) {
    // Cyrillic е is "ye" at the start of a word and after a vowel (қаерда → qayerda), else "e".
    out += ch === 'е' && !/[бвгджзйклмнпрстфхцчшщқғҳ]/.test(previous) ? 'ye' : (UZ_CYRILLIC[ch] ?? ch);
    previous = ch;
  }
  return out;
}

/** Endings taken off a word (longest first), so that forms of one word meet. */
const ENDINGS: Record<LanguageGroup, readonly string[]> = {
  uz: [
    'larining',
    'laridan',
    'laridagi',
    'lardan',
    'larni',
    'larga',
    'larda',
    'lari',
    'ning',
    'dagi',
    'dan',
    'lar',
    'ni',
    'ga',
    'ka',
    'qa',
    'da',
    'mi',
    'si',
  ],
  ru: [
    'ями',
    'ами',
    'ого',
    'ему',
    'ому',
    'ыми',
    'ими',
    'ией',
    'ия',
    'ие',
    'ий',
    'ый',
    'ой',
    'ая',
    'яя',
    'ое',
    'ее',
    'ые',
    'ов',
    'ев',
    'ах',
    'ях',
    'ом',
    'ем',
    'ей',
    'а',
    'я',
    'ы',
    'и',
    'у',
    'ю',
    'е',
    'о',
    'ь',
  ],
  en: ['ing', 'ies', 'es', 'ed', 's'],
};

/** Shortest stem an ending may leave. */
const MIN_STEM = 3;

/**
 * A word without its most common ending (one only), never shorter than three letters.
 * @example stem('pochtasi', 'uz') // 'pochta'
 * @example stem('почтовое', 'ru') // 'почтов'
 */
export function stem(word: string, group: LanguageGroup): string {
  for (const ending of ENDINGS[group])
    if (word.length - ending.length >= MIN_STEM && word.endsWith(ending)) return word.slice(0, -ending.length);
  return word;
}

/** Words that say nothing about the topic: left out of the index and of questions. */
const STOP_WORDS: Record<LanguageGroup, ReadonlySet<string>> = {
  uz: new Set(
    'va bilan uchun bu shu qanday qancha nima qayer qayerga qayerda qachon kim men biz siz u ular bor yoq mumkin kerak ham yoki agar edi emas boladi qilish qilib haqida'.split(
      ' ',
    ),
  ),
  ru: new Set(
    'и в во на с со к ко по о об от до за из у не ли а но или как что где когда какой какая какие какую кто мне меня мы вы я он она они это этот эта для при же бы можно нужно ли есть сколько чем'.split(
      ' ',
    ),
  ),
  en: new Set(
    'a an the and or of to in on at for by with is are was be can could do does did how what where when who which my i me we you your it this that there from about much many'.split(
      ' ',
    ),
  ),
};

/**
 * The search terms of a text: folded, split into words (letters and digits), stop words and
 * one-letter words left out, each word stemmed.
 * @example searchTerms('Сколько хранится почтовое отправление?', 'ru') // ['хранится', 'почтов', 'отправлен']
 */
export function searchTerms(text: string, group: LanguageGroup): string[] {
  const words = foldText(text, group).match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => w.length > 1 && !STOP_WORDS[group].has(w)).map((w) => stem(w, group));
}
