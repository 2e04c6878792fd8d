/**
 * zxcvbn with its dictionaries: the estimator `evaluatePassword` needs. Kept apart from the
 * policy because the common-password list is ~400 kB of script: the server imports this file,
 * the browser loads it with `import()` only where a new password is typed.
 *
 * Only `@zxcvbn-ts/language-common` (common passwords, diceware words, keyboard layouts):
 * `@zxcvbn-ts/language-en` would add ~1.2 MB of English words and names to every such page
 * and make the worst 128-character input several times slower to check, for people who
 * mostly write Uzbek and Russian. Its place is taken by a short regional list below.
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import type { PasswordEstimator } from './password-policy.ts';

/**
 * Words people here build passwords from that the common list lacks (or has in one script
 * only), most likely first: zxcvbn ranks a word by its position.
 */
const REGIONAL_WORDS = [
  'parol',
  'пароль',
  'парол',
  'uzbekistan',
  'ozbekiston',
  "o'zbekiston",
  'узбекистан',
  'ўзбекистон',
  'toshkent',
  'tashkent',
  'ташкент',
  'тошкент',
  'samarqand',
  'samarkand',
  'самарканд',
  'buxoro',
  'bukhara',
  'бухара',
  'andijon',
  'andijan',
  'namangan',
  'fargona',
  'fergana',
  'qarshi',
  'navoiy',
  'jizzax',
  'termiz',
  'nukus',
  'xorazm',
  'khorezm',
  'urganch',
  'guliston',
  'chilonzor',
  'yunusobod',
  'salom',
  'assalomu',
  'privet',
  'привет',
  'sevgi',
  'muhabbat',
  'любовь',
  'raqobat',
  'portal',
  'admin',
  'administrator',
];

/**
 * A new estimator (building zxcvbn's ranked dictionaries takes some tens of milliseconds:
 * create one and keep it).
 * @example const estimate = createPasswordEstimator(); estimate('12345678', []).score // 0
 */
export function createPasswordEstimator(): PasswordEstimator {
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...dictionary, regional: REGIONAL_WORDS },
    graphs: adjacencyGraphs,
  });
  return (password, userInputs) => {
    const { score, feedback } = zxcvbn.check(password, [...userInputs]);
    return { score, warning: feedback.warning, suggestions: feedback.suggestions };
  };
}
