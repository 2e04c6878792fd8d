/**
 * The whole of `npm run check` over a repository's definitions, as the server runs it before
 * it starts and the `check` script runs it for an analyst: the definitions' own rules, the
 * manifest capabilities' rules, and the names of the workflow implementations this server has.
 */
import { createHash } from 'node:crypto';
import { checkDefinitions, type DefinitionProblem } from '../definitions/check.ts';
import { loadDefinitionSources, type DefinitionSources } from '../definitions/sources.ts';
import { DEFINITION_RULES } from './capabilities/checks.ts';
import { implementationNames } from './workflow/implementations.ts';

/**
 * The check's problems by the digest of the definitions they were found in. The check is a
 * pure function of the definitions (and of this server's code), and takes most of a start-up's
 * second: a process that starts several apps on the same definitions — the tests, which start
 * hundreds — checks them once. A definition changed by one byte has another digest and is
 * checked again. Small: a process rarely sees more than a few sets of definitions at once.
 */
const checked = new Map<string, DefinitionProblem[]>();
const CHECKED_KEPT = 8;

/** A digest of every definition file's path and parsed content. */
function digestOf(sources: DefinitionSources): string {
  const hash = createHash('sha256');
  for (const [file, source] of sources) hash.update(file).update('\0').update(JSON.stringify(source.json));
  return hash.digest('hex');
}

/**
 * Reads schemas/, workflows/, screens/ and the locales under `root` and checks them.
 * @example const { sources, problems } = await loadCheckedDefinitions(root);
 */
export async function loadCheckedDefinitions(
  root: string,
): Promise<{ sources: DefinitionSources; problems: DefinitionProblem[] }> {
  const { sources, problems: parse } = await loadDefinitionSources(root);
  // A file that did not parse is not in `sources`: what was checked without it is not kept.
  if (parse.length)
    return { sources, problems: [...parse, ...checkDefinitions(sources, implementationNames, DEFINITION_RULES)] };
  const digest = digestOf(sources);
  let problems = checked.get(digest);
  if (!problems) {
    problems = checkDefinitions(sources, implementationNames, DEFINITION_RULES);
    if (checked.size >= CHECKED_KEPT) checked.delete(checked.keys().next().value!);
    checked.set(digest, problems);
  }
  return { sources, problems: [...problems] };
}
