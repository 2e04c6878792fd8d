/**
 * Uzbek Latin apostrophes. The official orthography writes ʻ (U+02BB, "turned comma") in the
 * letters oʻ and gʻ and ʼ (U+02BC, "apostrophe") for the tutuq belgisi (maʼlumot); texts and
 * people type ' ` ’ ‘ instead. `npm run fix:uz-apostrophes` rewrites the uz texts with
 * `fixUzApostrophes`, `npm run check` names those still wrong, and keyword search folds them all
 * together (`foldApostrophes`) so a plain apostrophe typed in a search still finds the text.
 */

/** Every character used as an apostrophe in Uzbek Latin texts (the two right ones included). */
export const UZ_APOSTROPHES = "'`‘’ʻʼ´ʹ";
const A = `[${UZ_APOSTROPHES}]`;
const O_G = new RegExp(`([oOgG])${A}(?=\\p{L})`, 'gu');
const TUTUQ = new RegExp(`(?<=\\p{L})(?<![oOgG])${A}(?=\\p{L})`, 'gu');
const ANY = new RegExp(A, 'gu');

/**
 * An Uzbek Latin text with the official apostrophes: o/g followed by any apostrophe and a
 * letter → ʻ; any other apostrophe between two letters → ʼ. Quotes, i18next interpolation and
 * HTML are left alone (their apostrophes do not stand between letters); running it twice
 * changes nothing.
 * @example fixUzApostrophes("O'zbekiston ma'lumot") // 'Oʻzbekiston maʼlumot'
 */
export function fixUzApostrophes(text: string): string {
  return text.replace(O_G, '$1ʻ').replace(TUTUQ, 'ʼ');
}

/**
 * A text with every apostrophe as a plain one, for comparing search terms with stored texts.
 * @example foldApostrophes('oʻzbek') === foldApostrophes("o'zbek") // true
 */
export function foldApostrophes(text: string): string {
  return text.replace(ANY, "'");
}
