/**
 * Reads the text files from disk and merges them (./locales.ts) — for the web build's
 * plugin (vite.config.ts) and for tests that read the texts the app shows. The server and
 * `npm run check` read them with the other definitions (sources.ts). Node only.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LOCALES, type Locale } from '../shared/locales.ts';
import { mergeLocales, shellLocaleFile, type LocaleProblem, type LocaleSource, type MergedLocales } from './locales.ts';
import { jsonSyntaxMessage } from './sources.ts';

/**
 * The repository-relative paths of every text file: the four shell files, then each entity's
 * `schemas/<id>/i18n.json` and each machine's `workflows/<machine>.i18n.json` that exist.
 */
export function localeFilePaths(root: string): string[] {
  const entityTexts = readdirSync(path.join(root, 'schemas'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
    .map((d) => `schemas/${d.name}/i18n.json`)
    .filter((file) => existsSync(path.join(root, file)));
  const machineTexts = existsSync(path.join(root, 'workflows'))
    ? readdirSync(path.join(root, 'workflows'))
        .filter((f) => f.endsWith('.i18n.json'))
        .map((f) => `workflows/${f}`)
    : [];
  return [...LOCALES.map(shellLocaleFile), ...[...entityTexts, ...machineTexts].sort()];
}

/**
 * Every locale's merged texts as the app shows them, read from the files under `root`; a
 * file that is not valid JSON is a problem (line and column) and left out.
 * @example readLocales(REPO_ROOT).locales.en.screen
 */
export function readLocales(root: string): MergedLocales {
  const shell: Partial<Record<Locale, unknown>> = {};
  const parts: LocaleSource[] = [];
  const unreadable: LocaleProblem[] = [];
  const files = localeFilePaths(root);
  const [shellFiles, partFiles] = [files.slice(0, LOCALES.length), files.slice(LOCALES.length)];
  const parse = (file: string): unknown => {
    const abs = path.join(root, file);
    if (!existsSync(abs)) return undefined;
    const text = readFileSync(abs, 'utf8');
    try {
      return JSON.parse(text);
    } catch (error) {
      unreadable.push({ file, pointer: '', message: jsonSyntaxMessage(text, (error as Error).message) });
      return undefined;
    }
  };
  LOCALES.forEach((locale, i) => {
    shell[locale] = parse(shellFiles[i]!);
  });
  for (const file of partFiles) {
    const json = parse(file);
    if (json !== undefined) parts.push({ file, json });
  }
  const merged = mergeLocales(shell, parts);
  return { ...merged, problems: [...unreadable, ...merged.problems] };
}
