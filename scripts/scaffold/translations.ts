/**
 * Where `npm run new:entity` reads and writes an entity's texts. The scaffold builds its texts
 * as flat dotted keys in the four languages and hands them to {@link writeTranslations}, the one
 * place that knows the layout on disk:
 *
 * - `per-entity` (the contract of issue #16): `schemas/<id>/i18n.json` holds the keys under
 *   `entity.<id>.` and `screen.<screen id>.`, `workflows/<machine>.i18n.json` those under
 *   `workflow.<machine>.`; each file is `{ en, ru, uz, uzCyrillic }`, every language a partial
 *   locale tree rooted at the locale root.
 * - `shell` (the loader before per-entity translations): the keys go into the four files
 *   `src/i18n/locales/<lang>.json`.
 *
 * The layout follows the repository: once any entity keeps an `i18n.json` (the per-entity
 * loader moved them there), new entities do too. `--i18n per-entity|shell` overrides it.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LOCALES, type Locale } from '../../src/shared/locales.ts';

/** A text in each of the four languages. */
export type Texts = Record<Locale, string>;

/** Dotted i18n key → its text in each language. */
export type FlatTexts = Map<string, Texts>;

/** Where the texts of an entity live on disk. */
export type TranslationLayout = 'per-entity' | 'shell';

/** The order of the languages in a per-entity file (the contract's). */
const FILE_ORDER: readonly Locale[] = ['en', 'ru', 'uz', 'uzCyrillic'];

/**
 * What a text not yet translated starts with: the English text follows, so the screens stay
 * readable and the check passes, and `grep -r "\[translate\]" schemas workflows src/i18n` lists
 * what is left to translate.
 */
export const UNTRANSLATED_MARK = '[translate] ';

/**
 * The English text in English, and the same text marked for translation in the three others.
 * @example englishOnly('Sugar outlets').ru // '[translate] Sugar outlets'
 */
export function englishOnly(en: string): Texts {
  const marked = `${UNTRANSLATED_MARK}${en}`;
  return { en, ru: marked, uz: marked, uzCyrillic: marked };
}

/** The layout the repository under `root` uses: per-entity once any entity has an `i18n.json`. */
export function translationLayout(root: string): TranslationLayout {
  const schemas = path.join(root, 'schemas');
  const perEntity = readdirSync(schemas, { withFileTypes: true }).some(
    (d) => d.isDirectory() && !d.name.startsWith('_') && existsSync(path.join(schemas, d.name, 'i18n.json')),
  );
  return perEntity ? 'per-entity' : 'shell';
}

const readJson = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const writeJson = (file: string, data: unknown): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every leaf of a locale tree as dotted key → text. */
function leaves(tree: unknown, prefix = '', into = new Map<string, string>()): Map<string, string> {
  if (!isObject(tree)) return into;
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') into.set(key, v);
    else leaves(v, key, into);
  }
  return into;
}

/** Sets `key` (dotted) in a locale tree; refuses a key that is already there. */
function insert(tree: Record<string, unknown>, key: string, text: string, file: string): void {
  const parts = key.split('.');
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(node[part])) {
      if (node[part] !== undefined) throw new Error(`${file}: "${key}" cannot be added: "${part}" is a text`);
      node[part] = {};
    }
    node = node[part] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (node[last] !== undefined) throw new Error(`${file}: the key "${key}" exists already`);
  node[last] = text;
}

/**
 * Every text under `root` whose key starts with one of `prefixes` (e.g. `entity.vacancy.`),
 * from the shell locale files and from every per-entity and per-machine file, whatever the layout.
 */
export function readTranslations(root: string, prefixes: readonly string[]): FlatTexts {
  const byLocale = Object.fromEntries(LOCALES.map((l) => [l, new Map<string, string>()])) as Record<
    Locale,
    Map<string, string>
  >;
  const shell = path.join(root, 'src/i18n/locales');
  for (const locale of LOCALES) {
    const file = path.join(shell, `${locale}.json`);
    if (existsSync(file)) leaves(readJson(file), '', byLocale[locale]);
  }
  const parts = [
    ...readdirSync(path.join(root, 'schemas'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
      .map((d) => path.join(root, 'schemas', d.name, 'i18n.json')),
    ...(existsSync(path.join(root, 'workflows'))
      ? readdirSync(path.join(root, 'workflows'))
          .filter((f) => f.endsWith('.i18n.json'))
          .map((f) => path.join(root, 'workflows', f))
      : []),
  ].filter((f) => existsSync(f));
  for (const file of parts) {
    const json = readJson(file);
    for (const locale of LOCALES) leaves(json[locale], '', byLocale[locale]);
  }
  const texts: FlatTexts = new Map();
  for (const [key, en] of byLocale.en) {
    if (!prefixes.some((p) => key.startsWith(p))) continue;
    texts.set(key, Object.fromEntries(LOCALES.map((l) => [l, byLocale[l].get(key) ?? en])) as Texts);
  }
  return texts;
}

/** The file a key belongs to in the per-entity layout (repository-relative). */
function perEntityFile(key: string, entity: string, machine: string | undefined): string {
  return machine && key.startsWith(`workflow.${machine}.`)
    ? `workflows/${machine}.i18n.json`
    : `schemas/${entity}/i18n.json`;
}

/**
 * Writes the texts of a new entity (and of its machine) in `layout`; returns the files written
 * (repository-relative). In the shell layout a key that exists already is an error, so another
 * entity's label is never overwritten.
 * @example writeTranslations(root, texts, { entity: 'sugar-outlet', machine: 'sugar-outlet' }, 'per-entity')
 */
export function writeTranslations(
  root: string,
  texts: FlatTexts,
  owner: { entity: string; machine?: string | undefined },
  layout: TranslationLayout,
): string[] {
  if (layout === 'shell') {
    // Every file is changed in memory first: a refused key leaves all four as they were.
    const trees = LOCALES.map((locale) => {
      const rel = `src/i18n/locales/${locale}.json`;
      const tree = readJson(path.join(root, rel));
      for (const [key, text] of texts) insert(tree, key, text[locale], rel);
      return [rel, tree] as const;
    });
    for (const [rel, tree] of trees) writeJson(path.join(root, rel), tree);
    return trees.map(([rel]) => rel);
  }
  const trees = new Map<string, Record<string, Record<string, unknown>>>();
  for (const [key, text] of texts) {
    const rel = perEntityFile(key, owner.entity, owner.machine);
    const file = path.join(root, rel);
    if (!trees.has(rel)) {
      const existing = existsSync(file) ? readJson(file) : {};
      trees.set(rel, Object.fromEntries(FILE_ORDER.map((l) => [l, isObject(existing[l]) ? existing[l] : {}])));
    }
    for (const locale of FILE_ORDER) insert(trees.get(rel)![locale]!, key, text[locale], rel);
  }
  for (const [rel, tree] of trees) writeJson(path.join(root, rel), tree);
  return [...trees.keys()];
}
