/**
 * The uz (Latin) texts of the repository, for `npm run fix:uz-apostrophes` and the check
 * `check:uz-apostrophes`: the whole of src/i18n/locales/uz.json; the `uz` tree of
 * schemas/<id>/i18n.json and workflows/<machine>.i18n.json; every `nameLt` (the Latin name of a
 * reference item or seeded record) under schemas/; and the values of seed files that are Uzbek
 * Latin by their oʻ/gʻ (fields named …En/…Ru/…Uz — English, Russian, Cyrillic — excepted).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fixUzApostrophes, UZ_APOSTROPHES } from '../src/shared/uz-apostrophes.ts';

/** One uz text: the file (relative, with /), the JSON pointer of the value and the value. */
export interface UzText {
  file: string;
  pointer: string;
  value: string;
}

const escape = (segment: string): string => segment.replaceAll('~', '~0').replaceAll('/', '~1');
const UZBEK_LATIN = new RegExp(`[oOgG][${UZ_APOSTROPHES}]\\p{L}`, 'u');
const OTHER_LANGUAGE = /(En|Ru|Uz)$/;

/** Every string under `value` with its pointer (below `base`), where `take(key, text)` agrees. */
function strings(
  value: unknown,
  base: string,
  take: (key: string, text: string) => boolean,
  key = '',
): Array<{ pointer: string; value: string }> {
  if (typeof value === 'string') return take(key, value) ? [{ pointer: base, value }] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${base}/${i}`, take, key));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => strings(v, `${base}/${escape(k)}`, take, k));
  return [];
}

const list = (root: string, dir: string, test: (name: string) => boolean): string[] =>
  existsSync(path.join(root, dir))
    ? readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
        .map((f) => `${dir}/${f.split(path.sep).join('/')}`)
        .filter((f) => test(path.posix.basename(f)) && !f.startsWith('schemas/_meta/'))
        .sort()
    : [];

/** The files holding uz texts and, per file, which of its strings are uz texts. */
function sources(
  root: string,
): Array<{ file: string; pick(data: unknown): Array<{ pointer: string; value: string }> }> {
  const all = () => true;
  const uzTree = (data: unknown) => strings((data as { uz?: unknown }).uz, '/uz', all);
  const names = (data: unknown) => strings(data, '', (key) => key === 'nameLt');
  const seed = (data: unknown) =>
    strings(data, '', (key, text) => key === 'nameLt' || (!OTHER_LANGUAGE.test(key) && UZBEK_LATIN.test(text)));
  return [
    { file: 'src/i18n/locales/uz.json', pick: (data: unknown) => strings(data, '', all) },
    ...list(root, 'schemas', (n) => n === 'i18n.json').map((file) => ({ file, pick: uzTree })),
    ...list(root, 'workflows', (n) => n.endsWith('.i18n.json')).map((file) => ({ file, pick: uzTree })),
    ...list(root, 'schemas', (n) => n === 'seed.json').map((file) => ({ file, pick: seed })),
    ...list(root, 'schemas', (n) => n.endsWith('.json') && n !== 'seed.json' && n !== 'i18n.json').map((file) => ({
      file,
      pick: names,
    })),
  ].filter((s) => existsSync(path.join(root, s.file)));
}

/** Every uz text of the repository at `root`. */
export function uzTexts(root: string): UzText[] {
  return sources(root).flatMap(({ file, pick }) =>
    pick(JSON.parse(readFileSync(path.join(root, file), 'utf8'))).map((t) => ({ file, ...t })),
  );
}

/** The uz texts that still use a wrong apostrophe (what `fixUzApostrophes` would change). */
export function wrongUzApostrophes(root: string): UzText[] {
  return uzTexts(root).filter((t) => fixUzApostrophes(t.value) !== t.value);
}
