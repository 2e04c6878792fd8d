/**
 * The interface texts are spread over files: the shell and engine texts in
 * `src/i18n/locales/<locale>.json` (one tree per file), every entity's own labels in
 * `schemas/<id>/i18n.json` and every machine's in `workflows/<machine>.i18n.json` (one file
 * with a tree per language: `{ "en": {...}, "ru": {...}, "uz": {...}, "uzCyrillic": {...} }`,
 * each rooted at the locale root, so a key has the same path wherever it is written). This
 * module merges them into one tree per locale, the same way for the server (the registry),
 * the web build (vite.config.ts) and `npm run check`. Pure: the callers read the files.
 */
import { LOCALES, type Locale } from '../shared/locales.ts';
import { escapeSegment } from '../shared/pointer.ts';

/** One locale's texts: nested objects of strings. */
export type LocaleTree = Record<string, unknown>;

/** A file of texts as read: its repository-relative path and parsed JSON. */
export interface LocaleSource {
  file: string;
  json: unknown;
}

/** One thing wrong while merging: the file, where in it, and what. */
export interface LocaleProblem {
  file: string;
  pointer: string;
  message: string;
}

/** What {@link mergeLocales} gives: one tree per locale, where each text came from, what went wrong. */
export interface MergedLocales {
  locales: Record<Locale, LocaleTree>;
  /** Per locale: the dot-separated key of every text → the file it is written in. */
  origins: Record<Locale, Map<string, string>>;
  /** Per-entity or per-machine files that have no tree for a language (each named once). */
  absent: Record<Locale, Set<string>>;
  problems: LocaleProblem[];
}

/** The folder of the shell and engine texts. */
export const SHELL_LOCALE_DIR = 'src/i18n/locales';

/** The shell and engine texts of one locale. */
export const shellLocaleFile = (locale: Locale): string => `${SHELL_LOCALE_DIR}/${locale}.json`;

const PART_FILE = /^(?:schemas\/([a-z][a-z0-9-]*)\/i18n\.json|workflows\/([a-z][a-z0-9-]*)\.i18n\.json)$/;

/**
 * Whose texts a file holds: `{ entity }` for `schemas/<id>/i18n.json`, `{ machine }` for
 * `workflows/<machine>.i18n.json`, undefined for any other file.
 * @example localePartOwner('workflows/appeal.i18n.json') // { machine: 'appeal' }
 */
export function localePartOwner(file: string): { entity: string } | { machine: string } | undefined {
  const m = PART_FILE.exec(file);
  if (!m) return undefined;
  return m[1] ? { entity: m[1] } : { machine: m[2]! };
}

/**
 * The JSON pointer of a text in the file it is (or belongs) in: a per-entity or per-machine
 * file holds a tree per language, a shell file one tree.
 * @example textPointer('schemas/appeal/i18n.json', 'ru', 'entity.appeal.title') // '/ru/entity/appeal/title'
 */
export function textPointer(file: string, locale: Locale, key: string): string {
  const path = `/${key.split('.').map(escapeSegment).join('/')}`;
  return localePartOwner(file) ? `/${locale}${path}` : path;
}

const isTree = (v: unknown): v is LocaleTree => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Deep-merges the shell texts with every per-entity and per-machine file into one tree per
 * locale. A text defined in two files (or a key that is a text in one file and a group in
 * another) is a problem naming both; so is a value that is neither a string nor an object,
 * a per-entity file that is not `{ <locale>: {...} }`, and a language it does not know.
 * The first definition of a key wins, so the trees stay usable whatever the problems.
 * @example mergeLocales({ en: { app: { title: 'Portal' } } }, [{ file: 'schemas/x/i18n.json', json: { en: { entity: { x: { title: 'X' } } } } }])
 */
export function mergeLocales(shell: Partial<Record<Locale, unknown>>, parts: readonly LocaleSource[]): MergedLocales {
  const locales = Object.fromEntries(LOCALES.map((l) => [l, {}])) as Record<Locale, LocaleTree>;
  const origins = Object.fromEntries(LOCALES.map((l) => [l, new Map()])) as Record<Locale, Map<string, string>>;
  const absent = Object.fromEntries(LOCALES.map((l) => [l, new Set()])) as Record<Locale, Set<string>>;
  const problems: LocaleProblem[] = [];

  const mergeInto = (locale: Locale, file: string, target: LocaleTree, source: LocaleTree, prefix: string): void => {
    for (const [k, v] of Object.entries(source)) {
      const key = prefix ? `${prefix}.${k}` : k;
      const pointer = textPointer(file, locale, key);
      if (typeof v !== 'string' && !isTree(v)) {
        problems.push({ file, pointer, message: 'locale values must be strings or objects' });
        continue;
      }
      const there = target[k];
      if (there === undefined) {
        if (typeof v === 'string') {
          target[k] = v;
          origins[locale].set(key, file);
        } else mergeInto(locale, file, (target[k] = {}), v, key);
      } else if (typeof v === 'string' || typeof there === 'string') {
        const other =
          origins[locale].get(key) ??
          [...origins[locale]].find(([leaf]) => leaf.startsWith(`${key}.`))?.[1] ??
          'another file';
        problems.push({
          file,
          pointer,
          message: `key "${key}" is defined twice: here and in ${other}#${textPointer(other, locale, key)}`,
        });
      } else mergeInto(locale, file, there as LocaleTree, v, key);
    }
  };

  for (const locale of LOCALES) {
    const tree = shell[locale];
    if (isTree(tree)) mergeInto(locale, shellLocaleFile(locale), locales[locale], tree, '');
  }
  for (const { file, json } of parts) {
    if (!isTree(json)) {
      problems.push({
        file,
        pointer: '',
        message: `must be an object with one tree per language (${LOCALES.join(', ')})`,
      });
      continue;
    }
    for (const [lang, tree] of Object.entries(json)) {
      if (lang === '$schema') continue;
      if (!(LOCALES as readonly string[]).includes(lang))
        problems.push({
          file,
          pointer: `/${escapeSegment(lang)}`,
          message: `"${lang}" is not a language: use ${LOCALES.join(', ')}`,
        });
      else if (!isTree(tree)) problems.push({ file, pointer: `/${lang}`, message: 'must be an object of texts' });
      else mergeInto(lang as Locale, file, locales[lang as Locale], tree, '');
    }
    for (const locale of LOCALES) {
      if (isTree(json[locale])) continue;
      absent[locale].add(file);
      if (json[locale] === undefined)
        problems.push({ file, pointer: '', message: `the ${locale} texts are missing: add "${locale}": { ... }` });
    }
  }
  return { locales, origins, absent, problems };
}

/**
 * The file a text belongs in: `entity.<id>.…` in the entity's `schemas/<id>/i18n.json`,
 * `screen.<screen>.…` in the file of the screen's entity, `workflow.<machine>.…` in
 * `workflows/<machine>.i18n.json`; anything else (and anything of an entity, screen or
 * machine that does not exist) in the shell file of the locale.
 * @example homeOfKey('screen.appeal-list.title', 'en', { entities: new Set(['appeal']), machines: new Set(), screenEntity: new Map([['appeal-list', 'appeal']]) }) // 'schemas/appeal/i18n.json'
 */
export function homeOfKey(
  key: string,
  locale: Locale,
  known: { entities: ReadonlySet<string>; machines: ReadonlySet<string>; screenEntity: ReadonlyMap<string, string> },
): string {
  const [ns, id] = key.split('.');
  if (ns === 'entity' && id && known.entities.has(id)) return `schemas/${id}/i18n.json`;
  if (ns === 'workflow' && id && known.machines.has(id)) return `workflows/${id}.i18n.json`;
  const owner = ns === 'screen' && id ? known.screenEntity.get(id) : undefined;
  if (owner && known.entities.has(owner)) return `schemas/${owner}/i18n.json`;
  return shellLocaleFile(locale);
}

/**
 * The arguments of {@link mergeLocales} picked from a set of parsed files (the definition
 * sources, or any map keyed by repository-relative path): the shell file of each locale and
 * every per-entity and per-machine file, in path order.
 * @example mergeLocales(...localeSourcesOf(sources))
 */
export function localeSourcesOf(
  sources: ReadonlyMap<string, { json: unknown }>,
): [Partial<Record<Locale, unknown>>, LocaleSource[]] {
  const shell: Partial<Record<Locale, unknown>> = {};
  for (const locale of LOCALES) {
    const file = sources.get(shellLocaleFile(locale));
    if (file) shell[locale] = file.json;
  }
  const parts = [...sources.keys()]
    .filter((file) => localePartOwner(file))
    .sort()
    .map((file) => ({ file, json: sources.get(file)!.json }));
  return [shell, parts];
}
