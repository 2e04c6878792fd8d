/**
 * The whole of `npm run check` over a repository's definitions, as the server runs it before
 * it starts and the `check` script runs it for an analyst: the definitions' own rules, the
 * manifest capabilities' rules, and the names of the workflow implementations this server has.
 */
import { checkDefinitions, type DefinitionProblem } from '../definitions/check.ts';
import { loadDefinitionSources, type DefinitionSources } from '../definitions/sources.ts';
import { DEFINITION_RULES } from './capabilities/checks.ts';
import { implementationNames } from './workflow/implementations.ts';

/**
 * Reads schemas/, workflows/, screens/ and the locales under `root` and checks them.
 * @example const { sources, problems } = await loadCheckedDefinitions(root);
 */
export async function loadCheckedDefinitions(
  root: string,
): Promise<{ sources: DefinitionSources; problems: DefinitionProblem[] }> {
  const { sources, problems: parse } = await loadDefinitionSources(root);
  return { sources, problems: [...parse, ...checkDefinitions(sources, implementationNames, DEFINITION_RULES)] };
}
