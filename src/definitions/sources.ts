import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** One definition file as read from disk: its repository-relative path and parsed JSON. */
export interface DefinitionFile {
  path: string;
  json: unknown;
  /**
   * A migration's TypeScript step (`schemas/<id>/migrations/*.ts`): present so that the check
   * can tell it exists; its `json` is null and the server imports it from disk.
   */
  script?: true;
}

/** Every file the definitions consist of, keyed by repository-relative path. */
export type DefinitionSources = Map<string, DefinitionFile>;

/** A JSON file that could not be parsed. */
export interface ParseProblem {
  file: string;
  pointer: string;
  message: string;
}

/**
 * The folders and files that hold definitions, relative to the repository root. The texts are
 * `locales` (shell and engine) plus each entity folder's `i18n.json` and each machine's
 * `workflows/<machine>.i18n.json`, read with their folders and merged by ./locales.ts.
 */
export const DEFINITION_GLOBS = {
  meta: 'schemas/_meta',
  references: 'schemas/_reference',
  access: 'schemas/_access',
  openData: 'schemas/_opendata',
  integrations: 'schemas/_integrations',
  entities: 'schemas',
  workflows: 'workflows',
  screens: 'screens',
  locales: 'src/i18n/locales',
} as const;

async function jsonFiles(root: string, dir: string, ext = '.json'): Promise<string[]> {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  return (await readdir(abs))
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => `${dir}/${f}`);
}

/**
 * A JSON syntax error in words with its line and column (an editor's coordinates), not the
 * character offset `JSON.parse` gives; the end of the text when it names no position.
 * @example jsonSyntaxMessage('{\n  oops\n}', 'Expected double-quoted property name in JSON at position 4')
 * // 'not valid JSON at line 2, column 3: Expected double-quoted property name'
 */
export function jsonSyntaxMessage(text: string, parseError: string): string {
  const position = /at position (\d+)/.exec(parseError);
  const offset = position ? Math.min(Number(position[1]), text.length) : text.length;
  const before = text.slice(0, offset).split('\n');
  const what = parseError
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/\s*in JSON at position \d+/, '')
    .replace(/\s*at position \d+/, '');
  return `not valid JSON at line ${before.length}, column ${before.at(-1)!.length + 1}: ${what}`;
}

/**
 * Reads every definition file under `root`. Files that are not valid JSON are reported in
 * `problems` instead of thrown, so `npm run check` can list them all at once.
 */
export async function loadDefinitionSources(
  root: string,
): Promise<{ sources: DefinitionSources; problems: ParseProblem[] }> {
  const files: string[] = [
    ...(await jsonFiles(root, DEFINITION_GLOBS.meta)),
    ...(await jsonFiles(root, DEFINITION_GLOBS.references)),
    ...(await jsonFiles(root, DEFINITION_GLOBS.access)),
    ...(await jsonFiles(root, DEFINITION_GLOBS.openData)),
    ...(await jsonFiles(root, DEFINITION_GLOBS.workflows)),
    ...(await jsonFiles(root, DEFINITION_GLOBS.screens)),
    ...(await jsonFiles(root, DEFINITION_GLOBS.locales)),
  ];
  // One folder per agency: its agency.json, one file per method and the sandbox's fixtures/.
  const integrationsDir = path.join(root, DEFINITION_GLOBS.integrations);
  if (existsSync(integrationsDir)) {
    for (const agency of (await readdir(integrationsDir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .sort((a, b) => a.name.localeCompare(b.name)))
      files.push(
        ...(await jsonFiles(root, `${DEFINITION_GLOBS.integrations}/${agency.name}`)),
        ...(await jsonFiles(root, `${DEFINITION_GLOBS.integrations}/${agency.name}/fixtures`)),
      );
  }
  for (const entry of (await readdir(path.join(root, 'schemas'), { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.isDirectory() && !entry.name.startsWith('_'))
      files.push(
        ...(await jsonFiles(root, `schemas/${entry.name}`)),
        ...(await jsonFiles(root, `schemas/${entry.name}/migrations`)),
      );
  }
  const sources: DefinitionSources = new Map();
  const problems: ParseProblem[] = [];
  for (const entry of await readdir(path.join(root, 'schemas'), { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('_')) continue;
    for (const file of await jsonFiles(root, `schemas/${entry.name}/migrations`, '.ts'))
      sources.set(file, { path: file, json: null, script: true });
  }
  for (const file of files) {
    const text = await readFile(path.join(root, file), 'utf8');
    try {
      sources.set(file, { path: file, json: JSON.parse(text) });
    } catch (error) {
      problems.push({ file, pointer: '', message: jsonSyntaxMessage(text, (error as Error).message) });
    }
  }
  return { sources, problems };
}
