/**
 * Reading the two sides of a definitions diff: the working tree, and a git ref of the same
 * repository (extracted with `git archive` into a temporary folder under `.tmp/`). Both include
 * the entities' `migrations/<N>.json`, which the check reads beside the definitions.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { jsonSyntaxMessage, loadDefinitionSources, type DefinitionSources, type ParseProblem } from '../sources.ts';

/** The folders a definitions diff compares (locales are texts, not definitions). */
const DEFINITION_DIRS = ['schemas', 'workflows', 'screens'];

/**
 * The definitions under `root` plus every `schemas/<id>/migrations/<N>.json`.
 * @example const { sources } = await loadComparableDefinitions(process.cwd());
 */
export async function loadComparableDefinitions(
  root: string,
): Promise<{ sources: DefinitionSources; problems: ParseProblem[] }> {
  const { sources, problems } = await loadDefinitionSources(root);
  const schemas = path.join(root, 'schemas');
  for (const entity of existsSync(schemas) ? readdirSync(schemas).sort() : []) {
    const dir = path.join(schemas, entity, 'migrations');
    if (entity.startsWith('_') || !existsSync(dir)) continue;
    for (const name of readdirSync(dir).filter((f) => /^\d+\.json$/.test(f))) {
      const file = `schemas/${entity}/migrations/${name}`;
      const text = readFileSync(path.join(root, file), 'utf8');
      try {
        sources.set(file, { path: file, json: JSON.parse(text) });
      } catch (error) {
        problems.push({ file, pointer: '', message: jsonSyntaxMessage(text, (error as Error).message) });
      }
    }
  }
  return { sources, problems };
}

/** A git ref that names no commit of the repository at `root`, in words. */
export class UnknownRefError extends Error {}

/**
 * The definitions as they are at `ref` (a branch, tag or commit) of the git repository that
 * holds `root`. Throws {@link UnknownRefError} when the ref names no commit.
 * @example const base = await loadDefinitionsAt(root, 'main');
 */
export async function loadDefinitionsAt(root: string, ref: string): Promise<DefinitionSources> {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, ...args], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  let commit: string;
  try {
    commit = git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`).toString().trim();
  } catch {
    throw new UnknownRefError(
      `"${ref}" names no commit of the repository at ${root} (try main, HEAD~1 or a commit id)`,
    );
  }
  const tmp = path.join(root, '.tmp');
  mkdirSync(tmp, { recursive: true });
  const dir = mkdtempSync(path.join(tmp, 'defs-base-'));
  try {
    const present = git('ls-tree', '--name-only', commit).toString().split('\n');
    const dirs = DEFINITION_DIRS.filter((d) => present.includes(d));
    if (dirs.length) {
      const tar = git('archive', '--format=tar', commit, '--', ...dirs);
      execFileSync('tar', ['-x', '-C', dir], { input: tar, maxBuffer: 1 << 30 });
    }
    mkdirSync(path.join(dir, 'schemas'), { recursive: true });
    return (await loadComparableDefinitions(dir)).sources;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
