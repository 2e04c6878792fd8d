/**
 * Which entities a change touches, for `npm run preview -- --changed [<ref>]`: the files that
 * differ from the ref (committed, staged, unstaged or untracked), mapped to the entities whose
 * definitions they are — `schemas/<id>/**`, the entity's machine, its screens.
 */
import { spawnSync } from 'node:child_process';
import type { DefinitionRegistry } from '../../src/definitions/registry.ts';

/**
 * The entity ids `files` (repository-relative paths) belong to, sorted: a file of
 * `schemas/<id>/` to that entity, `workflows/<m>.machine.json` (and anything else named after
 * the machine there) to the entities following machine `m`, `screens/<s>.json` to the screen's
 * entity. Other files (shared definitions, code) name no entity.
 * @example entitiesOfFiles(registry, ['workflows/appeal.machine.json']) // ['appeal']
 */
export function entitiesOfFiles(registry: DefinitionRegistry, files: readonly string[]): string[] {
  const ids = new Set<string>();
  const entities = [...registry.entities.values()];
  for (const file of files) {
    const schema = /^schemas\/([^_/][^/]*)\//.exec(file);
    if (schema && registry.entities.has(schema[1]!)) ids.add(schema[1]!);
    const machine = /^workflows\/([^/.]+)\./.exec(file);
    if (machine) for (const e of entities) if (e.manifest.workflow === machine[1]) ids.add(e.id);
    const screen = /^screens\/([^/]+)\.json$/.exec(file);
    const entity = screen && registry.screens.get(screen[1]!)?.entity;
    if (entity && registry.entities.has(entity)) ids.add(entity);
  }
  return [...ids].sort();
}

/**
 * The files that differ between `ref` and the working tree, untracked ones included.
 * Throws with git's words when the ref is unknown.
 */
export function changedFiles(root: string, ref: string): string[] {
  const git = (...args: string[]): string[] => {
    const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
    return r.stdout.split('\n').filter(Boolean);
  };
  // `git diff <ref>` compares the ref with the working tree: commits since it, staged and not.
  return [...new Set([...git('diff', '--name-only', ref, '--'), ...git('ls-files', '--others', '--exclude-standard')])];
}
